import * as assert from 'assert';
import { chartModel, escapeXml, renderChartSvg } from '../../../../src/webview/failingChart';
import type { ChartGeometry } from '../../../../src/webview/failingChart';

const G: ChartGeometry = { width: 300, height: 140, left: 40, right: 10, top: 10, bottom: 30 };

describe('failing-count chart', () => {
  const points = [
    { n: 0, failing: 4, verdict: 'baseline' },
    { n: 1, failing: 2, verdict: 'progress' },
    { n: 2, failing: 3, verdict: 'regression' },
    { n: 3, failing: 0, verdict: 'green' },
  ];

  it('spreads attempts evenly left to right and scales the y axis to the largest count', () => {
    const m = chartModel(points, G);
    assert.strictEqual(m.maxFailing, 4);
    assert.deepStrictEqual(m.points.map((p) => p.x), [40, 123.3, 206.7, 290]);
    // plot height 100: 4 failing at the top (y 10), 0 on the axis (y 110)
    assert.deepStrictEqual(m.points.map((p) => p.y), [10, 60, 35, 110]);
  });

  it('marks the baseline, regressions and green distinctly (shape, not only colour)', () => {
    const m = chartModel(points, G);
    assert.deepStrictEqual(m.points.map((p) => p.kind), ['baseline', 'normal', 'regression', 'green']);
    const svg = renderChartSvg(m);
    assert.match(svg, /<g class="point baseline"><title>Baseline: 4 failing<\/title><rect /);
    assert.match(svg, /<g class="point regression"><title>Attempt 2: 3 failing \(regression\)<\/title><path d="M201.7 30L211.7 40M201.7 40L211.7 30"\/>/);
    assert.match(svg, /<g class="point green"><title>Attempt 3: 0 failing \(green\)<\/title><circle cx="290" cy="110"/);
    assert.match(svg, /<polyline class="line" fill="none" points="40,10 123.3,60 206.7,35 290,110"\/>/);
  });

  it('draws a flat zero line and a single point without dividing by zero', () => {
    const flat = chartModel([{ n: 0, failing: 0, verdict: 'baseline' }, { n: 1, failing: 0, verdict: 'green' }], G);
    assert.strictEqual(flat.maxFailing, 1);
    assert.deepStrictEqual(flat.points.map((p) => p.y), [110, 110]);
    const single = chartModel([{ n: 0, failing: 5, verdict: 'baseline' }], G);
    assert.deepStrictEqual([single.points[0].x, single.points[0].y], [165, 10]);
    assert.doesNotMatch(renderChartSvg(single), /polyline|NaN|Infinity/);
  });

  it('labels the axes with 0, the maximum and the attempt numbers', () => {
    const svg = renderChartSvg(chartModel(points, G));
    const ticks = [...svg.matchAll(/<text class="tick"[^>]*>([^<]*)<\/text>/g)].map((t) => t[1]);
    assert.deepStrictEqual(ticks, ['0', '4', 'base', '1', '2', '3']);
  });

  it('escapes text that comes from history, so a verdict cannot inject markup', () => {
    const svg = renderChartSvg(chartModel([{ n: 0, failing: 1, verdict: 'baseline' }, { n: 1, failing: 1, verdict: '<script>alert("x")</script>&' }], G), 'A "caption" <b>');
    assert.doesNotMatch(svg, /<script|<b>/);
    assert.match(svg, /\(&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&amp;\)/);
    assert.match(svg, /<title>A &quot;caption&quot; &lt;b&gt;<\/title>/);
    assert.strictEqual(escapeXml(`&<>"'`), '&amp;&lt;&gt;&quot;&apos;');
  });

  it('is an accessible image whose label reads the whole series', () => {
    const svg = renderChartSvg(chartModel(points.slice(0, 2), G));
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="chart" role="img" viewBox="0 0 300 140"/);
    assert.match(svg, /aria-label="Failing tests and type errors per attempt. Baseline: 4 failing; Attempt 1: 2 failing \(progress\)"/);
    assert.doesNotMatch(svg, /style=/, 'the CSP forbids inline styles');
  });
});
