// The injected bugs: one line of a real project changed (a wrong constant, a flipped condition, an off-by-one, a
// wrong operator), each checked to make at least one of the project's own tests fail (`-- --verify`). `line` is the
// line as upstream has it (whitespace aside, exactly once in the file), `wrong` what it becomes.
export type Kind = 'constant' | 'condition' | 'off-by-one' | 'operator' | 'type error';

export interface Bug {
  id: string;
  project: string;
  file: string;
  line: string;
  wrong: string;
  kind: Kind;
}

const bug = (project: string, n: number, file: string, kind: Kind, line: string, wrong: string): Bug => ({ id: `${project}-${n}`, project, file, line, wrong, kind });

export const BUGS: readonly Bug[] = [
  bug('bytes', 1, 'index.js', 'constant', 'mb: 1 << 20,', 'mb: 1 << 21,'),
  bug('bytes', 2, 'index.js', 'off-by-one', 'if (mag >= map.pb) {', 'if (mag > map.pb) {'),
  bug('bytes', 3, 'index.js', 'operator', 'var mag = Math.abs(value);', 'var mag = value;'),
  bug('bytes', 4, 'index.js', 'condition', 'if (!fixedDecimals) {', 'if (fixedDecimals) {'),
  bug('bytes', 5, 'index.js', 'operator', 'return Math.floor(map[unit] * floatValue);', 'return Math.ceil(map[unit] * floatValue);'),
  bug('bytes', 6, 'index.js', 'constant', 'floatValue = parseInt(val, 10);', 'floatValue = parseInt(val, 8);'),
  bug('bytes', 7, 'index.js', 'off-by-one', 'return i === 0', 'return i === 1'),

  bug('ufo', 1, 'src/utils.ts', 'off-by-one', 'return (hasLeadingSlash(input) ? input.slice(1) : input) || "/";', 'return (hasLeadingSlash(input) ? input.slice(2) : input) || "/";'),
  bug('ufo', 2, 'src/utils.ts', 'off-by-one', 'const cleanPath = s0.endsWith("/") ? s0.slice(0, -1) : s0;', 'const cleanPath = s0.endsWith("/") ? s0.slice(0, -2) : s0;'),
  bug('ufo', 3, 'src/utils.ts', 'off-by-one', 'return trimmed[0] === "/" ? trimmed : "/" + trimmed;', 'return trimmed[1] === "/" ? trimmed : "/" + trimmed;'),
  bug('ufo', 4, 'src/utils.ts', 'constant', 'return !url || url === "/";', 'return !url || url === "";'),
  bug('ufo', 5, 'src/utils.ts', 'off-by-one', 'if (segments.length === 1 && hasProtocol(segments[0])) {', 'if (segments.length === 0 && hasProtocol(segments[0])) {'),
  bug('ufo', 6, 'src/utils.ts', 'off-by-one', 'return s0 + "/" + (s.length > 0 ? `?${s.join("?")}` : "") + fragment;', 'return s0 + "/" + (s.length > 1 ? `?${s.join("?")}` : "") + fragment;'),
  bug('ufo', 7, 'src/query.ts', 'condition', 'if (object[key] === undefined) {', 'if (object[key] !== undefined) {'),
  bug('ufo', 8, 'src/parse.ts', 'off-by-one', 'auth: auth ? auth.slice(0, Math.max(0, auth.length - 1)) : "",', 'auth: auth ? auth.slice(0, Math.max(0, auth.length - 2)) : "",'),
  bug('ufo', 9, 'src/parse.ts', 'off-by-one', 'return matches ? matches[1] : undefined;', 'return matches ? matches[0] : undefined;'),
  bug('ufo', 10, 'src/utils.ts', 'type error', 'const trimmed = input.slice(_base.length);', 'const trimmed: number = input.slice(_base.length);'),
  bug('ufo', 11, 'src/parse.ts', 'type error', 'const auth = parsed.auth ? parsed.auth + "@" : "";', 'const auth: boolean = parsed.auth ? parsed.auth + "@" : "";'),

  bug('cookie', 1, 'src/index.ts', 'off-by-one', 'if (len < 2) return obj;', 'if (len < 3) return obj;'),
  bug('cookie', 2, 'src/index.ts', 'condition', 'if (obj[key] === undefined) {', 'if (obj[key] !== undefined) {'),
  bug('cookie', 3, 'src/index.ts', 'off-by-one', 'const code = str.charCodeAt(end - 1);', 'const code = str.charCodeAt(end - 2);'),
  bug('cookie', 4, 'src/index.ts', 'constant', 'str += "; Max-Age=" + cookie.maxAge;', 'str += "; MaxAge=" + cookie.maxAge;'),
  bug('cookie', 5, 'src/index.ts', 'operator', 'return cookieOctetRegExp.test(str) ? str : encodeURIComponent(str);', 'return cookieOctetRegExp.test(str) ? str : encodeURI(str);'),
  bug('cookie', 6, 'src/index.ts', 'condition', 'if (str.indexOf("%") === -1) return str;', 'if (str.indexOf("%") !== -1) return str;'),
  bug('cookie', 7, 'src/index.ts', 'operator', 'if (val && maxAgeRegExp.test(val)) setCookie.maxAge = Number(val);', 'if (val && maxAgeRegExp.test(val)) setCookie.maxAge = Number(val) * 1000;'),

  bug('cachetools', 1, 'src/cachetools/__init__.py', 'off-by-one', 'if size > maxsize:', 'if size >= maxsize:'),
  bug('cachetools', 2, 'src/cachetools/__init__.py', 'off-by-one', 'while self.__currsize + size > maxsize:', 'while self.__currsize + size >= maxsize:'),
  bug('cachetools', 3, 'src/cachetools/__init__.py', 'operator', 'self.__currsize += diffsize', 'self.__currsize -= diffsize'),
  bug('cachetools', 4, 'src/cachetools/__init__.py', 'constant', 'if link.count != 1:', 'if link.count != 0:'),
  bug('cachetools', 5, 'src/cachetools/__init__.py', 'off-by-one', 'if curr.count != link.count + 1:', 'if curr.count != link.count + 2:'),
  bug('cachetools', 6, 'src/cachetools/__init__.py', 'condition', 'if key not in self.__data or self.__size[key] < size:', 'if key in self.__data or self.__size[key] < size:'),
  bug('cachetools', 7, 'src/cachetools/__init__.py', 'condition', 'if key not in self.__index:', 'if key in self.__index:'),
  bug('cachetools', 8, 'src/cachetools/__init__.py', 'operator', 'self.__currsize -= size', 'self.__currsize += size'),

  bug('more-itertools', 1, 'more_itertools/more.py', 'off-by-one', 'iterator = takewhile(len, (seq[i : i + n] for i in count(0, n)))', 'iterator = takewhile(len, (seq[i : i + n] for i in count(1, n)))'),
  bug('more-itertools', 2, 'more_itertools/more.py', 'off-by-one', 'return chain.from_iterable(map(repeat, iterable, repeat(n)))', 'return chain.from_iterable(map(repeat, iterable, repeat(n + 1)))'),
  bug('more-itertools', 3, 'more_itertools/more.py', 'off-by-one', 'stop += q + 1 if i <= r else q', 'stop += q + 1 if i < r else q'),
  bug('more-itertools', 4, 'more_itertools/more.py', 'operator', 'sf = sf * i + adj', 'sf = sf * i - adj'),
  bug('more-itertools', 5, 'more_itertools/more.py', 'condition', 'if len(_slice) != n:', 'if len(_slice) > n:'),
  bug('more-itertools', 6, 'more_itertools/more.py', 'off-by-one', 'for i in range(size - n + 1):', 'for i in range(size - n):'),
  bug('more-itertools', 7, 'more_itertools/more.py', 'off-by-one', 'f = list(range(iterable_count + 1))', 'f = list(range(iterable_count))'),

  bug('go-humanize', 1, 'bytes.go', 'constant', 'Byte = 1 << (iota * 10)', 'Byte = 1 << (iota * 11)'),
  bug('go-humanize', 2, 'comma.go', 'off-by-one', 'if counter == 2 {', 'if counter == 3 {'),
  bug('go-humanize', 3, 'ordinals.go', 'constant', 'if x%100 != 12 {', 'if x%100 != 21 {'),
  bug('go-humanize', 4, 'times.go', 'constant', 'Week     = 7 * Day', 'Week     = 6 * Day'),
  bug('go-humanize', 5, 'times.go', 'off-by-one', 'return magnitudes[i].D > diff', 'return magnitudes[i].D >= diff'),
  bug('go-humanize', 6, 'ftoa.go', 'off-by-one', 'return s[:offset+1]', 'return s[:offset]'),
  bug('go-humanize', 7, 'si.go', 'constant', 'if value == 1000.0 {', 'if value == 100.0 {'),
  bug('go-humanize', 8, 'comma.go', 'off-by-one', 'count += (count - 1) / 3', 'count += count / 3'),
  bug('go-humanize', 9, 'bytes.go', 'constant', 'digits += 1', 'digits += 2'),
];
