// test-unit's XML report (`--runner=xml`, test/unit/ui/xml/testrunner.rb) read one line at a time: the runner writes
// each tag on its own line, indented, and each value on one line (`<name>test_x</name>`), a multi-line value (a
// failure's `<detail>`) running on until its closing tag. It shares stdout with the tests: a line that is no tag of
// the report (what a test printed) is passed over. Each `<test-result>` gives its test case, test, status, backtrace
// and detail; `<success>` directly in `<stream>` closes the run.

export interface XmlResult {
  testCase: string;
  test: string;
  /** success, failure, error, omission, pending or notification. */
  status: string;
  detail: string;
  backtrace: Array<{ file: string; line: string; info: string }>;
}

const OPEN = /^\s*<([a-z-]+)>$/;
const CLOSE = /^\s*<\/([a-z-]+)>$/;
const VALUE = /^\s*<([a-z-]+)>(.*)<\/\1>$/;
const VALUE_START = /^\s*<(detail|expected|actual|name|info)>(.*)$/;

/** ERB::Util.h's escapes, undone. */
function unescape(s: string): string {
  return s.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
}

export class XmlStream {
  private readonly path: string[] = [];
  /** The test case each `<start-test-case>` opened, for a result written without its own. */
  private readonly cases: string[] = [];
  private result: XmlResult | null = null;
  private entry: { file: string; line: string; info: string } | null = null;
  /** A value spread over lines: its tag and the lines read so far. */
  private text: { tag: string; lines: string[] } | null = null;
  finished = false;

  constructor(private readonly onResult: (r: XmlResult) => void) {}

  /** Whether a multi-line value is being read (a line then is part of it, never a tag or a crash). */
  get inText(): boolean {
    return this.text !== null;
  }

  push(line: string): void {
    if (this.text) {
      const end = line.lastIndexOf(`</${this.text.tag}>`);
      if (end < 0 || end + this.text.tag.length + 3 !== line.length) {
        if (this.text.lines.length < 400) this.text.lines.push(line);
        return;
      }
      this.text.lines.push(line.slice(0, end));
      const { tag, lines } = this.text;
      this.text = null;
      this.value(tag, lines.join('\n'));
      return;
    }
    const v = VALUE.exec(line);
    if (v) return this.value(v[1], v[2]);
    const o = OPEN.exec(line);
    if (o) return this.open(o[1]);
    const c = CLOSE.exec(line);
    if (c) return this.close(c[1]);
    const s = VALUE_START.exec(line);
    if (s && this.path.length > 0) this.text = { tag: s[1], lines: [s[2]] };
  }

  private open(tag: string): void {
    this.path.push(tag);
    if (tag === 'test-result') this.result = { testCase: this.cases[this.cases.length - 1] ?? '', test: '', status: '', detail: '', backtrace: [] };
    else if (tag === 'entry') this.entry = { file: '', line: '', info: '' };
  }

  private close(tag: string): void {
    const at = this.path.lastIndexOf(tag);
    if (at < 0) return;
    this.path.length = at;
    if (tag === 'test-result' && this.result) {
      this.onResult(this.result);
      this.result = null;
    } else if (tag === 'entry' && this.entry && this.result) {
      this.result.backtrace.push(this.entry);
      this.entry = null;
    } else if (tag === 'complete-test-case') this.cases.pop();
  }

  private value(tag: string, raw: string): void {
    const text = unescape(raw);
    const parent = this.path[this.path.length - 1];
    const grand = this.path[this.path.length - 2];
    if (tag === 'name' && parent === 'test-case' && grand === 'start-test-case') this.cases.push(text);
    else if (tag === 'success' && parent === 'stream') this.finished = true;
    if (!this.result) return;
    if (tag === 'name' && parent === 'test-case') this.result.testCase = text;
    else if (tag === 'name' && parent === 'test') this.result.test = text;
    else if (tag === 'status' && parent === 'result') this.result.status = text;
    else if (tag === 'detail' && parent === 'result') this.result.detail = text;
    else if (this.entry && parent === 'entry' && (tag === 'file' || tag === 'line' || tag === 'info')) this.entry[tag] = text;
  }
}
