// The failing-count chart as an SVG string. Pure (no DOM) so its geometry and escaping are tested in plain Node;
// styling comes from classes in media/panel.css, since the panel's CSP forbids inline styles.
import type { ChartPoint } from '../shared/protocol';

export interface ChartGeometry {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const DEFAULT_GEOMETRY: ChartGeometry = { width: 480, height: 180, left: 40, right: 16, top: 16, bottom: 32 };

export interface PlacedPoint extends ChartPoint {
  x: number;
  y: number;
  kind: 'baseline' | 'regression' | 'green' | 'normal';
  label: string;
}

export interface ChartModel {
  geometry: ChartGeometry;
  /** The y axis runs from 0 to this value (at least 1, so a flat zero line is still drawn). */
  maxFailing: number;
  points: PlacedPoint[];
}

const round = (v: number) => Math.round(v * 10) / 10;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

function kindOf(p: ChartPoint): PlacedPoint['kind'] {
  if (p.n === 0) return 'baseline';
  if (p.verdict === 'regression') return 'regression';
  if (p.verdict === 'green') return 'green';
  return 'normal';
}

function labelOf(p: ChartPoint): string {
  const count = `${p.failing} failing`;
  return p.n === 0 ? `Baseline: ${count}` : `Attempt ${p.n}: ${count} (${p.verdict})`;
}

/** Places points left to right in the given order; the caller puts the baseline (n 0) first. */
export function chartModel(points: ChartPoint[], geometry: ChartGeometry = DEFAULT_GEOMETRY): ChartModel {
  const maxFailing = Math.max(1, ...points.map((p) => Math.max(0, p.failing)));
  const plotW = geometry.width - geometry.left - geometry.right;
  const plotH = geometry.height - geometry.top - geometry.bottom;
  const step = points.length > 1 ? plotW / (points.length - 1) : 0;
  return {
    geometry,
    maxFailing,
    points: points.map((p, i) => ({
      ...p,
      x: round(geometry.left + (points.length > 1 ? i * step : plotW / 2)),
      y: round(geometry.top + plotH - (Math.max(0, p.failing) / maxFailing) * plotH),
      kind: kindOf(p),
      label: labelOf(p),
    })),
  };
}

function marker(p: PlacedPoint): string {
  const title = `<title>${escapeXml(p.label)}</title>`;
  if (p.kind === 'regression') {
    // A cross, so a regression is visible without relying on colour alone.
    const d = 5;
    return `<g class="point regression">${title}<path d="M${p.x - d} ${p.y - d}L${p.x + d} ${p.y + d}M${p.x - d} ${p.y + d}L${p.x + d} ${p.y - d}"/></g>`;
  }
  if (p.kind === 'baseline') {
    return `<g class="point baseline">${title}<rect x="${p.x - 4}" y="${p.y - 4}" width="8" height="8"/></g>`;
  }
  return `<g class="point ${p.kind}">${title}<circle cx="${p.x}" cy="${p.y}" r="4"/></g>`;
}

export function renderChartSvg(model: ChartModel, caption = 'Failing tests and type errors per attempt'): string {
  const g = model.geometry;
  const bottom = g.height - g.bottom;
  const axes = `<path class="axis" d="M${g.left} ${g.top}V${bottom}H${g.width - g.right}"/>`;
  const yLabels = `<text class="tick" x="${g.left - 6}" y="${bottom}" text-anchor="end" dominant-baseline="middle">0</text>`
    + `<text class="tick" x="${g.left - 6}" y="${g.top}" text-anchor="end" dominant-baseline="middle">${model.maxFailing}</text>`;
  const xLabels = model.points
    .map((p) => `<text class="tick" x="${p.x}" y="${bottom + 16}" text-anchor="middle">${p.n === 0 ? 'base' : p.n}</text>`)
    .join('');
  const line = model.points.length > 1
    ? `<polyline class="line" fill="none" points="${model.points.map((p) => `${p.x},${p.y}`).join(' ')}"/>`
    : '';
  const summary = model.points.map((p) => p.label).join('; ');
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 ${g.width} ${g.height}" width="${g.width}" height="${g.height}" aria-label="${escapeXml(`${caption}. ${summary}`)}">`
    + `<title>${escapeXml(caption)}</title>${axes}${yLabels}${xLabels}${line}${model.points.map(marker).join('')}</svg>`;
}
