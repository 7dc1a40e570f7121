/**
 * The "Why is it slow" model (issue 12 items 1-3): pure functions of a report's `profile` (`--profile`) and
 * `eager_baseline` (`--compare-eager`) that the profile pane (view/panes/profile.ts) draws and its tests check.
 *
 * - `runSplit(profile)`: the run split into compiled | eager | compile, each with its share of the run.
 * - `speedupSentence(baseline)`, `paybackRuns(baseline)`, `paybackSentence(baseline)`: did it help, and after
 *   how many runs of the cell the compile pays back (compile / (eager - compiled)).
 * - `rankGraphs`, `entryRows`, `eagerRows`, `coverageRows`, `functionRows`, `backwardParts`: the rows of the
 *   pane's tables (graphs by time, cache entries, eager time by cause, captured-op coverage as in TorchDynamo
 *   Update 5, per-function speedups, the backward split).
 * - profileCalls.ts (schema minor 8): a graph's first call (its compile work and autotuning) apart from the calls
 *   after it, and the device time no graph launched (eager, compile work).
 * - `hitsByFrame(report)`: the hits of each cache entry (the frames pane's "×N hits" badge).
 * - `sortRows(rows, value, dir)`: a stable sort for the sortable tables.
 * - `formatPct`, `formatSpeedup` (and `formatMs`, breakList.ts's): the words the pane and the tests share.
 */
import { formatMs, userLine } from './breakList';
import type { ReportIndex } from './model';
import type {
  CompileReport,
  EagerBaseline,
  EagerGap,
  EntryProfile,
  Frame,
  FunctionSpeedup,
  GraphBreak,
  GraphProfile,
  KernelProfile,
  Profile
} from '../schema';

export { formatMs };

/** A finite number, else 0 (a report from an older engine may lack a field). */
export function num(value: number | null | undefined): number {
  return typeof value === 'number' && isFinite(value) ? value : 0;
}

/** `report.profile` (`--profile`, schema minor 6), or null. */
export function profileOf(report: CompileReport): Profile | null {
  const profile = report.profile;
  return profile && typeof profile === 'object' ? profile : null;
}

/** `report.eager_baseline` (`--compare-eager`, schema minor 6), or null. */
export function baselineOf(report: CompileReport): EagerBaseline | null {
  const baseline = report.eager_baseline;
  return baseline && typeof baseline === 'object' ? baseline : null;
}

/**
 * A share (0..1) as a percentage for people: `0%`, `<0.1%`, `4.2%`, `42%`.
 */
export function formatPct(share: number): string {
  const pct = num(share) * 100;
  if (pct <= 0) {
    return '0%';
  }
  if (pct < 0.1) {
    return '<0.1%';
  }
  return pct < 10 ? `${pct.toFixed(1)}%` : `${Math.round(pct)}%`;
}

/**
 * A speedup (eager / compiled) for people: `2.50×`, `0.42×`, `12.3×`; `–` when there is none.
 */
export function formatSpeedup(speedup: number | null | undefined): string {
  if (speedup === null || speedup === undefined || !isFinite(speedup) || speedup <= 0) {
    return '–';
  }
  return speedup >= 10 ? `${speedup.toFixed(1)}×` : `${speedup.toFixed(2)}×`;
}

/** The three parts of a run. */
export type SplitKey = 'compiled' | 'eager' | 'compile';

/** One part of the run split. */
export interface ISplitPart {
  key: SplitKey;
  ms: number;
  /** Of the three parts' sum (the profiled run's wall time), 0..1. */
  share: number;
  /** What the part holds, in the report's words. */
  detail: string;
}

/**
 * The run split: time inside compiled graphs, eager time (cache lookups included) and compile time, with
 * their shares of the run (the three add up to `wall_ms`).
 */
export function runSplit(profile: Profile): ISplitPart[] {
  const backward = num(profile.backward?.compiled_ms);
  const lookups = num(profile.cache_lookups);
  const parts: Array<Omit<ISplitPart, 'share'>> = [
    {
      key: 'compiled',
      ms: num(profile.compiled_ms),
      detail: `inside compiled graphs${backward > 0 ? ` (compiled backward: ${formatMs(backward)})` : ''}`
    },
    {
      key: 'eager',
      ms: num(profile.eager_ms),
      detail:
        "outside graphs: the cell's own Python, eager ATen ops, graph-break code, Dynamo's glue" +
        (lookups > 0
          ? `; ${lookups} cache lookup${lookups === 1 ? '' : 's'} (${formatMs(num(profile.cache_lookup_ms))})`
          : '')
    },
    { key: 'compile', ms: num(profile.compile_ms), detail: 'Dynamo and the backend compiling' }
  ];
  const total = parts.reduce((sum, p) => sum + p.ms, 0);
  return parts.map(p => ({ ...p, share: total > 0 ? p.ms / total : 0 }));
}

/**
 * The run split in one line: `compiled 4.00 ms (2%) · eager 8.00 ms (4%, 10 cache lookups 0.10 ms) · compile 200 ms (94%)`.
 */
export function splitText(profile: Profile): string {
  return runSplit(profile)
    .map(p => {
      const lookups = num(profile.cache_lookups);
      const extra =
        p.key === 'eager' && lookups > 0
          ? `, ${lookups} cache lookup${lookups === 1 ? '' : 's'} ${formatMs(num(profile.cache_lookup_ms))}`
          : '';
      return `${p.key} ${formatMs(p.ms)} (${formatPct(p.share)}${extra})`;
    })
    .join(' · ');
}

/**
 * The overall comparison with eager: `compiled run 4.00 ms vs eager 10.0 ms: 2.50× (compile 600 ms not included)`.
 */
export function speedupSentence(baseline: EagerBaseline): string {
  return (
    `compiled run ${formatMs(num(baseline.compiled_ms))} vs eager ${formatMs(num(baseline.eager_ms))}: ` +
    `${formatSpeedup(baseline.speedup)} (compile ${formatMs(num(baseline.compile_ms))} not included)`
  );
}

/**
 * After how many runs of the cell the compile pays back: compile / (eager - compiled), rounded up (a later
 * run of the cell finds its code compiled); 0 when nothing was compiled; null when compiled is not faster.
 */
export function paybackRuns(baseline: EagerBaseline): number | null {
  const saved = num(baseline.eager_ms) - num(baseline.compiled_ms);
  if (saved <= 0) {
    return null;
  }
  const compile = num(baseline.compile_ms);
  return compile <= 0 ? 0 : Math.max(1, Math.ceil(compile / saved));
}

/**
 * The verdict on the compile's cost: when it pays back, or that it does not.
 */
export function paybackSentence(baseline: EagerBaseline): string {
  const runs = paybackRuns(baseline);
  const saved = num(baseline.eager_ms) - num(baseline.compiled_ms);
  if (runs === null) {
    return num(baseline.compiled_ms) > 0 && saved < 0
      ? 'The compiled run is slower than eager here, so its compile never pays back.'
      : 'The compiled run is no faster than eager here, so its compile never pays back.';
  }
  if (runs === 0) {
    return `Each run saves ${formatMs(saved)} and this run compiled nothing: nothing to pay back.`;
  }
  return (
    `The compile pays back after ${runs} run${runs === 1 ? '' : 's'} of the cell ` +
    `(${formatMs(num(baseline.compile_ms))} compile / ${formatMs(saved)} saved per run).`
  );
}

/** A frame's name for people: a resume function reads `toy_example after line 8`. */
export function frameLabel(frame: Frame): string {
  const match = /^torch_dynamo_resume_in_(.+)_at_(\d+)$/.exec(frame.code.name);
  return match ? `${match[1]} after line ${match[2]}` : frame.code.name;
}

/** One row of the graphs table. */
export interface IGraphRow {
  /** 1 for the graph with the most time. */
  rank: number;
  graph: GraphProfile;
  /** Of the compiled time (`profile.compiled_ms`), 0..1. */
  share: number;
  /** The graph's frame (cache entry), when the report has it. */
  frame: Frame | null;
  /** The report holds the graph (`graphs[]`): the FX pane can show it. */
  shown: boolean;
  /** Its device kernels, the most time first. */
  kernels: KernelProfile[];
}

/**
 * The graphs that ran, the most total time first (ties: the most calls, then compile order), each with its
 * share of the compiled time.
 */
export function rankGraphs(profile: Profile, index: ReportIndex): IGraphRow[] {
  const graphs = (profile.graphs ?? []).filter(g => g && typeof g === 'object');
  const sum = graphs.reduce((s, g) => s + num(g.total_ms), 0);
  const compiled = num(profile.compiled_ms) > 0 ? num(profile.compiled_ms) : sum;
  return sortRows(
    sortRows(graphs, g => num(g.calls), 'desc'),
    g => num(g.total_ms),
    'desc'
  ).map((graph, i) => ({
    rank: i + 1,
    graph,
    share: compiled > 0 ? num(graph.total_ms) / compiled : 0,
    frame: index.frames.get(graph.compile_id) ?? null,
    shown: graph.graph_id !== null && index.graphs.has(graph.graph_id),
    kernels: sortRows(graph.kernels ?? [], k => num(k.device_ms), 'desc')
  }));
}

/** One row of the cache-entries table. */
export interface IEntryRow {
  entry: EntryProfile;
  frame: Frame | null;
}

/** The cache entries that ran, in compile order, with their frames. */
export function entryRows(profile: Profile, index: ReportIndex): IEntryRow[] {
  return (profile.entries ?? []).map(entry => ({ entry, frame: index.frames.get(entry.compile_id) ?? null }));
}

/** What each cause of eager time is, in the report's words. */
export const CAUSE_TEXT: Readonly<Record<EagerGap['cause'], string>> = {
  graph_break: 'the eager part of a frame that ended in a graph break: the break’s code and the calls it made',
  frame: 'Dynamo’s glue in a frame without a graph break (around its graph: arguments, outputs, cache lookups)',
  outside: 'code no compiled frame ran: the cell’s own lines, frames Dynamo skipped or was not started on',
  backward: 'autograd’s eager backward nodes (the backward of ops that ran outside graphs)'
};

/** One row of the eager-time table. */
export interface IEagerRow {
  /** 1 for the cause with the most time. */
  rank: number;
  gap: EagerGap;
  /** Of the eager time (`profile.eager_ms`), 0..1. */
  share: number;
  /** What it is, short: the break's gb_type, the frame's name, or the cause in words. */
  what: string;
  /** Where it is for people (`In [3], line 8`), for a graph break with a line; else null. */
  where: string | null;
  /** Its frame (graph_break, frame). */
  frame: Frame | null;
  /** The graph break (`frames[compile_id].graph_breaks[break_index]`), for cause 'graph_break'. */
  gb: GraphBreak | null;
  /** The line of its frame's own source to show (the break's, or the call that led to it), or null. */
  line: number | null;
}

/**
 * The line of a frame's own source a break is at: its line when it is in the frame's file, else the innermost
 * line of that file on its user stack (the call that led to it); null when neither is known.
 */
export function breakLine(frame: Frame, gb: GraphBreak): number | null {
  if (gb.filename === frame.code.filename || (gb.filename === null && frame.code.in_cell)) {
    return gb.line;
  }
  const own = gb.user_stack.filter(s => s.filename === frame.code.filename && s.line !== null);
  return own.length > 0 ? own[own.length - 1].line : null;
}

/**
 * Eager time by cause, the most time first: a 'graph_break' row names its break (gb_type and user line), a
 * 'frame' row its frame; 'outside' and 'backward' are said in words.
 */
export function eagerRows(profile: Profile, index: ReportIndex): IEagerRow[] {
  const gaps = (profile.eager ?? []).filter(g => g && typeof g === 'object');
  const sum = gaps.reduce((s, g) => s + num(g.ms), 0);
  const eager = num(profile.eager_ms) > 0 ? num(profile.eager_ms) : sum;
  return sortRows(gaps, g => num(g.ms), 'desc').map((gap, i) => {
    const frame = gap.compile_id !== null ? (index.frames.get(gap.compile_id) ?? null) : null;
    const gb =
      gap.cause === 'graph_break' && frame && typeof gap.break_index === 'number'
        ? (frame.graph_breaks[gap.break_index] ?? null)
        : null;
    let what: string;
    if (gap.cause === 'graph_break') {
      what = gb ? (gb.gb_id ? `${gb.gb_id} ${gb.gb_type}` : gb.gb_type) : `graph break ${gap.break_index ?? ''}`.trim();
    } else if (gap.cause === 'frame') {
      what = frame ? `${frameLabel(frame)}: Dynamo’s glue` : 'Dynamo’s glue';
    } else if (gap.cause === 'outside') {
      what = 'the cell’s own code, skipped frames';
    } else {
      what = 'autograd’s eager backward nodes';
    }
    return {
      rank: i + 1,
      gap,
      share: eager > 0 ? num(gap.ms) / eager : 0,
      what,
      where: gb ? userLine(index, gb.filename, gb.line) : null,
      frame,
      gb,
      line: gb && frame ? breakLine(frame, gb) : null
    };
  });
}

/** One row of the coverage table (TorchDynamo Update 5's columns). */
export interface ICoverageRow {
  /** 'cell', or the cache entry's compile id. */
  scope: string;
  /** The row's label: `cell`, `[0/0] toy_example`. */
  label: string;
  frame: Frame | null;
  graph_calls: number;
  captured_ops: number;
  total_ops: number;
  pct_ops: number;
  pct_time: number;
}

/** Captured-op coverage: one row for the cell, then one per cache entry (in the report's order). */
export function coverageRows(profile: Profile, index: ReportIndex): ICoverageRow[] {
  const c = profile.coverage;
  if (!c || typeof c !== 'object') {
    return [];
  }
  const row = (scope: string, label: string, frame: Frame | null, v: typeof c | (typeof c.frames)[number]) => ({
    scope,
    label,
    frame,
    graph_calls: num(v.graph_calls),
    captured_ops: num(v.captured_ops),
    total_ops: num(v.total_ops),
    pct_ops: num(v.pct_ops),
    pct_time: num(v.pct_time)
  });
  return [
    row('cell', 'cell', null, c),
    ...(c.frames ?? []).map(f => {
      const frame = index.frames.get(f.compile_id) ?? null;
      return row(f.compile_id, `[${f.compile_id}]${frame ? ` ${frameLabel(frame)}` : ''}`, frame, f);
    })
  ];
}

/** One row of the per-function speedups (`eager_baseline.functions`, scope 'calls'). */
export interface IFunctionRow {
  fn: FunctionSpeedup;
  /** The frames compiled from its code, those the report has. */
  frames: Frame[];
}

/** The per-function speedups, the most eager time first. */
export function functionRows(baseline: EagerBaseline, index: ReportIndex): IFunctionRow[] {
  return sortRows(baseline.functions ?? [], f => num(f.eager_ms), 'desc').map(fn => ({
    fn,
    frames: (fn.compile_ids ?? []).map(id => index.frames.get(id)).filter((f): f is Frame => f !== undefined)
  }));
}

/**
 * The backward split in words (`compiled 4 calls, 1.20 ms`, `eager 6 nodes, 0.50 ms`), or null when no
 * backward ran.
 */
export function backwardParts(profile: Profile): { compiled: string; eager: string } | null {
  const b = profile.backward;
  if (!b || num(b.compiled_calls) + num(b.eager_nodes) === 0) {
    return null;
  }
  const calls = num(b.compiled_calls);
  const nodes = num(b.eager_nodes);
  let compiled = `compiled ${calls} call${calls === 1 ? '' : 's'}, ${formatMs(num(b.compiled_ms))}`;
  if (num(b.compile_ms) > 0) {
    compiled += ` (${formatMs(num(b.compile_ms))} of it the lazy backward compile)`;
  }
  if (b.device_ms !== null && b.device_ms !== undefined) {
    compiled += `, device ${formatMs(num(b.device_ms))}`;
  }
  const other = num(b.other_thread_calls);
  if (other > 0) {
    compiled += `; ${other === calls ? (calls === 1 ? 'it' : 'all') : other} on another thread than the cell’s`;
  }
  return { compiled, eager: `eager ${nodes} node${nodes === 1 ? '' : 's'}, ${formatMs(num(b.eager_ms))}` };
}

/** How many calls each cache entry served (`profile.entries[].hits`), by compile id; empty without a profile. */
export function hitsByFrame(report: CompileReport): Map<string, number> {
  const hits = new Map<string, number>();
  for (const entry of profileOf(report)?.entries ?? []) {
    if (entry && typeof entry.compile_id === 'string') {
      hits.set(entry.compile_id, (hits.get(entry.compile_id) ?? 0) + num(entry.hits));
    }
  }
  return hits;
}

/** What the pane says when the report has no profile (with or without an eager baseline). */
export function noProfileText(report: CompileReport): string {
  return (
    'Run the cell with %%dynamo --profile to see where the time goes: hits and time per cache entry and graph, ' +
    'the eager time each graph break costs, and how many ATen ops the graphs captured' +
    (baselineOf(report) ? '.' : ' (add --compare-eager for the speedup over eager).')
  );
}

/** A sort direction. */
export type SortDir = 'asc' | 'desc';

/**
 * Rows sorted by a value (numbers numerically, strings by locale), stable: equal rows keep their order.
 */
export function sortRows<T>(rows: readonly T[], value: (row: T) => number | string, dir: SortDir): T[] {
  const sign = dir === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      const d = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
      return d * sign || a.i - b.i;
    })
    .map(x => x.row);
}
