/**
 * The compile-time chart's model, apart from the DOM so that it is tested on its own: where each phase of a frame
 * (`frames[].phases`, schema minor 6) goes on a time axis, and the words of the chart.
 *
 * - `layoutPhases(phases)`: where each bar goes. Each phase is a bar in the row of its depth (the phases it ran
 *   inside are above it), its left edge at its start and its width its duration, to scale. The axis is compile
 *   time: top-level phases (the frame's compile, a lazy backward compile at the first `backward()`) follow each
 *   other with the real time between them cut out and shown as a narrow gap. Reports before minor 6 hold one
 *   summed, overlapping entry per phase name: `layoutPhases` says `nested: false`, one bar per entry.
 * - `selfTimeByKind(layout)`: time spent in each kind of phase outside the phases inside it (the legend).
 * - `tickStep(span)`: a round step for the axis's ticks; `describeBar(bar)`: what a bar's tooltip says;
 *   `formatMs`, `formatPct`: the chart's numbers for people.
 */
import type { Phase, PhaseKind } from '../schema';

/** Words for each kind of phase, in the legend's order. */
export const KIND_LABELS: Readonly<Record<PhaseKind, string>> = {
  dynamo: 'Dynamo',
  guards: 'guards',
  backend: 'backend',
  aot: 'AOTAutograd',
  inductor: 'inductor',
  compile: 'compiling code',
  cache: 'caches',
  other: 'other'
};

/** The share of the axis a cut-out gap between two top-level phases takes. */
export const GAP_SHARE = 0.02;

/** One phase placed on the chart. */
export interface IBar {
  /** The phase, as the report has it. */
  readonly phase: Phase;
  /** Its index in `frame.phases`. */
  readonly index: number;
  /** 0 for a top-level phase. */
  readonly depth: number;
  /** Left edge on the axis, in ms of the axis. */
  readonly x: number;
  /** Duration in ms (0 for an instant event). */
  readonly ms: number;
  /** Share of the frame's compile (the top-level phases together), in percent. */
  readonly pct: number;
  /** Time inside this phase and outside the phases inside it, in ms. */
  readonly selfMs: number;
  /** The phase it ran inside, if any. */
  readonly parent: IBar | null;
  /** The phases inside it, by start. */
  readonly children: IBar[];
}

/** Real time cut out of the axis between two top-level phases. */
export interface IGap {
  /** Where the gap sits on the axis (ms of the axis). */
  readonly x: number;
  /** Its width on the axis (ms of the axis). */
  readonly width: number;
  /** How much real time it stands for, in ms. */
  readonly ms: number;
}

/** A stretch of the axis drawn to scale: one top-level phase. */
export interface ISegment {
  /** Its start on the axis. */
  readonly x: number;
  /** Compile time before it (the top-level phases to its left), in ms. */
  readonly compileMs: number;
  /** Its length in ms. */
  readonly ms: number;
}

/** Where every bar of a frame's chart goes. */
export interface IChartLayout {
  /** False for a report before minor 6: flat entries, summed per name, no start or parent. */
  readonly nested: boolean;
  /** Every bar, in the report's (tree) order. */
  readonly bars: IBar[];
  /** The top-level bars, by start. */
  readonly roots: IBar[];
  /** The frame's compile: the top-level phases together, in ms. */
  readonly totalMs: number;
  /** The axis length: `totalMs` plus the gaps. */
  readonly axisMs: number;
  /** How many rows the bars take. */
  readonly rows: number;
  /** The gaps cut out of the axis. */
  readonly gaps: IGap[];
  /** The stretches drawn to scale, by position. */
  readonly segments: ISegment[];
}

/**
 * Place a frame's phases on the chart (see the module comment).
 */
export function layoutPhases(phases: readonly Phase[]): IChartLayout {
  const nested = phases.length > 0 && phases.every(p => p.start_ms !== undefined && p.parent !== undefined);
  if (!nested) {
    return flatLayout(phases);
  }
  interface IDraft {
    phase: Phase;
    index: number;
    depth: number;
    parent: IDraft | null;
    children: IDraft[];
  }
  const drafts: IDraft[] = [];
  const roots: IDraft[] = [];
  phases.forEach((phase, index) => {
    const up = phase.parent !== null && phase.parent !== undefined ? drafts[phase.parent] : undefined;
    const draft: IDraft = { phase, index, depth: up ? up.depth + 1 : 0, parent: up ?? null, children: [] };
    drafts.push(draft);
    (up ? up.children : roots).push(draft);
  });
  const byStart = (a: IDraft, b: IDraft): number => (a.phase.start_ms ?? 0) - (b.phase.start_ms ?? 0);
  roots.sort(byStart);
  const totalMs = roots.reduce((sum, r) => sum + r.phase.ms, 0);
  const gapWidth = totalMs * GAP_SHARE;
  // each root's offset on the axis: roots follow each other, the time between them becomes a gap
  const shift = new Map<IDraft, number>();
  const gaps: IGap[] = [];
  const segments: ISegment[] = [];
  let cursor = 0;
  let compiled = 0;
  roots.forEach((root, i) => {
    if (i > 0) {
      const before = roots[i - 1];
      const real = (root.phase.start_ms ?? 0) - ((before.phase.start_ms ?? 0) + before.phase.ms);
      if (real > 0) {
        gaps.push({ x: cursor, width: gapWidth, ms: real });
        cursor += gapWidth;
      }
    }
    shift.set(root, cursor - (root.phase.start_ms ?? 0));
    segments.push({ x: cursor, compileMs: compiled, ms: root.phase.ms });
    cursor += root.phase.ms;
    compiled += root.phase.ms;
  });
  const bars = new Map<IDraft, IBar>();
  const rootOf = (d: IDraft): IDraft => (d.parent ? rootOf(d.parent) : d);
  let rows = 0;
  for (const d of drafts) {
    const ms = d.phase.instant ? 0 : d.phase.ms;
    const inside = d.children.reduce((sum, c) => sum + (c.phase.instant ? 0 : c.phase.ms), 0);
    const bar: IBar = {
      phase: d.phase,
      index: d.index,
      depth: d.depth,
      x: (d.phase.start_ms ?? 0) + (shift.get(rootOf(d)) ?? 0),
      ms,
      pct: totalMs > 0 ? (ms / totalMs) * 100 : 0,
      selfMs: Math.max(0, ms - inside),
      parent: d.parent ? bars.get(d.parent)! : null,
      children: []
    };
    bars.set(d, bar);
    bar.parent?.children.push(bar);
    rows = Math.max(rows, d.depth + 1);
  }
  for (const bar of bars.values()) {
    bar.children.sort((a, b) => a.x - b.x);
  }
  return {
    nested,
    bars: drafts.map(d => bars.get(d)!),
    roots: roots.map(r => bars.get(r)!),
    totalMs,
    axisMs: cursor,
    rows,
    gaps,
    segments
  };
}

/** A report before minor 6: one bar per entry, no nesting, no axis. */
function flatLayout(phases: readonly Phase[]): IChartLayout {
  const totalMs = phases.reduce((max, p) => Math.max(max, p.ms), 0);
  const bars: IBar[] = phases.map((phase, index) => ({
    phase,
    index,
    depth: 0,
    x: 0,
    ms: phase.ms,
    pct: totalMs > 0 ? (phase.ms / totalMs) * 100 : 0,
    selfMs: phase.ms,
    parent: null,
    children: []
  }));
  return { nested: false, bars, roots: bars, totalMs, axisMs: totalMs, rows: bars.length, gaps: [], segments: [] };
}

/**
 * Time per kind of phase outside the phases inside it (so the kinds add up to the frame's compile), largest
 * first; kinds with no time are left out.
 */
export function selfTimeByKind(layout: IChartLayout): Array<[PhaseKind, number]> {
  const sums = new Map<PhaseKind, number>();
  for (const bar of layout.bars) {
    const kind = bar.phase.kind ?? 'other';
    sums.set(kind, (sums.get(kind) ?? 0) + bar.selfMs);
  }
  return [...sums].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
}

/**
 * Milliseconds for people: 0.042 -> '0.04 ms', 12.3 -> '12 ms', 2400 -> '2.40 s'.
 */
export function formatMs(ms: number): string {
  if (ms >= 1000) {
    return `${(ms / 1000).toFixed(2)} s`;
  }
  if (ms >= 10) {
    return `${Math.round(ms)} ms`;
  }
  if (ms >= 1) {
    return `${ms.toFixed(1)} ms`;
  }
  return `${ms.toFixed(2)} ms`;
}

/** A percentage for people: '42%', '3.5%', '<0.1%'. */
export function formatPct(pct: number): string {
  if (pct >= 10) {
    return `${Math.round(pct)}%`;
  }
  if (pct >= 0.1) {
    return `${pct.toFixed(1)}%`;
  }
  return pct > 0 ? '<0.1%' : '0%';
}

/**
 * A round tick step (1, 2 or 5 times a power of ten) that cuts `span` ms into about `count` parts.
 */
export function tickStep(span: number, count = 6): number {
  if (!(span > 0)) {
    return 1;
  }
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map(m => m * power).find(s => s >= raw);
  return step ?? 10 * power;
}

/** The text a bar's tooltip and its accessible name say. */
export function describeBar(bar: IBar): string[] {
  const p = bar.phase;
  const names = p.event ? `${p.name} (${p.event})` : p.name;
  const label = p.label && p.label !== p.name ? p.label : null;
  const lines = [label ?? names];
  if (label) {
    lines.push(names);
  }
  if (p.instant) {
    lines.push(`instant event at +${formatMs(p.start_ms ?? 0)}`);
    return lines;
  }
  lines.push(`${formatMs(bar.ms)} · ${formatPct(bar.pct)} of this frame's compile`);
  const where = p.start_ms !== undefined ? `starts at +${formatMs(p.start_ms)}` : '';
  const self = bar.children.length > 0 ? `${formatMs(bar.selfMs)} outside the phases inside it` : '';
  const more = [where, self].filter(Boolean).join(' · ');
  if (more) {
    lines.push(more);
  }
  return lines;
}
