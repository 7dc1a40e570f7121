/**
 * Try a fix (issue 13 item 4), a pure model of the report: the remedies on offer (`report.fixes`, schema minor
 * 7), what each one targets, the `%%dynamo` line that tries one, and the before/after table of a run that
 * applied one (`report.try_fix`). The pane (view/panes/tryFix.ts), the notebook host (hosts/notebookFix.ts) and
 * the tests share it.
 *
 * - `readFixes(report)`, `readTryFix(report)`: the two fields, read defensively (absent before minor 7).
 * - `targetOf(index, target)`: a FixTarget resolved to its frame and break or recompile, with a label.
 * - `magicLine(options, name)`: the `%%dynamo` line with the report's own options and `--try NAME`, for a page
 *   without a kernel (the static view, the standalone page) to copy.
 * - `tryCellSource(source, name)`: a notebook cell's text with `--try NAME` on its `%%dynamo` line (appended, or
 *   replacing an earlier `--try`), the rest of the cell unchanged: what the Try it button runs.
 * - `outcomeRows(tryFix)`: the rows of the before/after table, each marked better, worse or same.
 */
import { formatMs, userLine } from './breakList';
import { shortReason } from './guardsModel';
import type { ReportIndex } from './model';
import type {
  CompileReport,
  ExportCall,
  Fix,
  FixTarget,
  Frame,
  GraphBreak,
  RecompileReason,
  RunOptions,
  TryFix
} from '../schema';

/** `--trace-steps-max`'s default (TRACE_STEPS_MAX in compiler/options.py): a line leaves it out. */
export const TRACE_STEPS_MAX = 2000;

/** The magic's name, as the cell's first line spells it. */
export const MAGIC = '%%dynamo';

/** The option that applies a fix (compiler/options.py `--try`). */
export const TRY_FLAG = '--try';

/**
 * `report.fixes`, or an empty list (a report before minor 7, or a malformed field).
 */
export function readFixes(report: CompileReport): Fix[] {
  return Array.isArray(report.fixes) ? report.fixes.filter(f => f && typeof f.name === 'string') : [];
}

/**
 * `report.try_fix` (a `--try` run), or null.
 */
export function readTryFix(report: CompileReport): TryFix | null {
  const tryFix = report.try_fix;
  return tryFix && typeof tryFix === 'object' && tryFix.before && tryFix.after ? tryFix : null;
}

/** A fix's target, resolved in the report. */
export interface IFixTarget {
  target: FixTarget;
  /** The frame it names (null: the report has no such compile id). */
  frame: Frame | null;
  /** The graph break it names (kind 'graph_break'), when the frame has it. */
  graphBreak: GraphBreak | null;
  /** The recompile reason it names (kind 'recompile'), when the frame has it. */
  recompile: RecompileReason | null;
  /** The export call it names (kind 'export', minor 23), when the report has it. */
  exportCall?: ExportCall | null;
  /**
   * For people: `graph break in [0/0]: Unsupported Tensor.item() call at line 4`, `recompile [0/1]: size
   * mismatch…`, `failed frame [0/0]: GuardOnDataDependentSymNode` (kind 'failure': the frame Dynamo gave up on).
   */
  label: string;
}

/**
 * Resolve a target: its frame and the break or recompile it names, with a one-line label.
 */
export function targetOf(index: ReportIndex, target: FixTarget): IFixTarget {
  if (target.kind === 'export' || target.compile_id === null) {
    const call = (index.report.exports ?? []).find(c => c.index === target.index) ?? null;
    const at = call?.failure?.line ? ` at line ${call.failure.line}` : '';
    const label = call
      ? `failed export ${call.module}${call.line ? ` (line ${call.line})` : ''}${at}: ${call.failure?.what ?? call.outcome}`
      : `export call ${target.index}`;
    return { target, frame: null, graphBreak: null, recompile: null, exportCall: call, label };
  }
  const frame = index.frames.get(target.compile_id) ?? null;
  const at = `[${target.compile_id}]`;
  if (target.kind === 'graph_break') {
    const gb = frame?.graph_breaks[target.index] ?? null;
    const where = gb ? userLine(index, gb.filename, gb.line) : null;
    const label = gb
      ? `graph break in ${at}: ${gb.gb_type}${where ? ` at ${where}` : ''}`
      : `graph break ${target.index + 1} of ${at}`;
    return { target, frame, graphBreak: gb, recompile: null, label };
  }
  if (target.kind === 'failure') {
    const what = frame?.fail_type ? `: ${frame.fail_type}` : '';
    return { target, frame, graphBreak: null, recompile: null, label: `failed frame ${at}${what}` };
  }
  const reason = frame?.recompile_reasons[target.index] ?? null;
  const label = reason ? `recompile ${at}: ${shortReason(reason.reason)}` : `recompile ${at}`;
  return { target, frame, graphBreak: null, recompile: reason, label };
}

/** A token of a magic line, quoted when it holds white space or a quote (IPython splits the line like a shell). */
function token(value: string): string {
  return /^[^\s'"]+$/.test(value) ? value : JSON.stringify(value);
}

/**
 * The `%%dynamo` line of a report's run options with `--try NAME`: every option that differs from its default
 * is written back (compiler/options.py), so the kernel finds the run without the fix as the 'before'. The
 * options of a `--try` run hold what the engine set for it (`fresh`, and `dynamic` for the fix 'dynamic'),
 * not what the user typed: those are left out.
 */
export function magicLine(options: RunOptions, name: string): string {
  if (options.try_fix) {
    options = { ...options, fresh: false, dynamic: options.try_fix === 'dynamic' ? null : options.dynamic };
  }
  const parts: string[] = [MAGIC];
  if (options.backend && options.backend !== 'inductor') {
    parts.push('--backend', token(options.backend));
  }
  if (options.mode) {
    parts.push('--mode', token(options.mode));
  }
  if (options.dynamic === true) {
    parts.push('--dynamic');
  } else if (options.dynamic === false) {
    parts.push('--no-dynamic');
  }
  if (options.fullgraph) {
    parts.push('--fullgraph');
  }
  if (options.override_compile_options) {
    parts.push('--override-compile-options');
  }
  if (options.scope && options.scope !== 'auto') {
    parts.push('--scope', options.scope === 'frames' ? 'all-frames' : options.scope);
  }
  if (typeof options.recompile_limit === 'number') {
    parts.push('--recompile-limit', String(options.recompile_limit));
  }
  if (options.decompile && options.decompile !== 'user') {
    parts.push('--decompile', options.decompile);
  }
  if (options.fresh) {
    parts.push('--fresh');
  }
  if (options.profile) {
    parts.push('--profile');
  }
  if (options.compare_eager) {
    parts.push('--compare-eager');
  }
  if (options.decisions) {
    parts.push('--decisions');
  }
  if (typeof options.trace_steps === 'string') {
    // '' = the first frame compiled; the kernel finds the run before only under the same options
    parts.push('--trace-steps', ...(options.trace_steps ? [token(options.trace_steps)] : []));
    if (typeof options.trace_steps_max === 'number' && options.trace_steps_max !== TRACE_STEPS_MAX) {
      parts.push('--trace-steps-max', String(options.trace_steps_max));
    }
  }
  parts.push(TRY_FLAG, token(name));
  return parts.join(' ');
}

/** `--try NAME` or `--try=NAME` on a magic line (NAME possibly quoted). */
const TRY_OPTION = /(^|\s)--try(?:=|\s+)(?:"[^"]*"|'[^']*'|\S+)/g;

/**
 * A notebook cell's text with `--try NAME` on its `%%dynamo` line: appended to the options the line has, or
 * in place of a `--try` it already has; the cell's body is unchanged. Null when the first line is not a
 * `%%dynamo` line (the cell cannot be re-run with a fix).
 */
export function tryCellSource(source: string, name: string): string | null {
  const newline = source.indexOf('\n');
  const first = newline < 0 ? source : source.slice(0, newline);
  const rest = newline < 0 ? '' : source.slice(newline);
  const match = /^(\s*%%dynamo)(\s.*)?$/.exec(first.replace(/\r$/, ''));
  if (!match) {
    return null;
  }
  const options = (match[2] ?? '').replace(TRY_OPTION, '').trim();
  const line = [match[1], options, `${TRY_FLAG} ${token(name)}`].filter(p => p).join(' ');
  return line + (first.endsWith('\r') ? '\r' : '') + rest;
}

/** A row of the before/after table. */
export interface IOutcomeRow {
  /** The RunOutcome field (`graph_breaks`, `compiled_ms`, ...) or `error`. */
  key: string;
  label: string;
  before: string;
  after: string;
  /** Whether the fix made it better (fewer, faster, no error), worse, or left it the same. */
  change: 'better' | 'worse' | 'same';
}

/** Counts compared: fewer is better. */
const COUNTS: Array<[key: 'frames' | 'graphs' | 'graph_breaks' | 'recompiles', label: string]> = [
  ['frames', 'frames compiled'],
  ['graphs', 'graphs'],
  ['graph_breaks', 'graph breaks'],
  ['recompiles', 'recompiles']
];

/** Times compared: shorter is better, by more than `TIME_NOISE` of the larger one. */
const TIMES: Array<[key: 'compiled_ms' | 'eager_ms' | 'compile_ms' | 'wall_ms', label: string]> = [
  ['compiled_ms', 'time in compiled graphs'],
  ['eager_ms', 'eager time between graphs'],
  ['compile_ms', 'compile time'],
  ['wall_ms', 'wall time']
];

/** A change in time under this share of the larger time is noise: neither better nor worse. */
export const TIME_NOISE = 0.1;

/** A finite number, or null. */
function finite(value: unknown): number | null {
  return typeof value === 'number' && isFinite(value) ? value : null;
}

/**
 * The before/after table of a `--try` run: the counts (frames, graphs, graph breaks, recompiles), then the
 * profiled times when both runs have them (`--profile`: compiled_ms, eager_ms), compile and wall time, and the
 * cell's exception when either run raised.
 */
export function outcomeRows(tryFix: TryFix): IOutcomeRow[] {
  const { before, after } = tryFix;
  const rows: IOutcomeRow[] = [];
  for (const [key, label] of COUNTS) {
    const b = finite(before[key]) ?? 0;
    const a = finite(after[key]) ?? 0;
    rows.push({ key, label, before: String(b), after: String(a), change: a < b ? 'better' : a > b ? 'worse' : 'same' });
  }
  for (const [key, label] of TIMES) {
    const b = finite(before[key]);
    const a = finite(after[key]);
    if (b === null || a === null) {
      continue;
    }
    const noise = TIME_NOISE * Math.max(a, b);
    const change = a < b - noise ? 'better' : a > b + noise ? 'worse' : 'same';
    rows.push({ key, label, before: formatMs(b), after: formatMs(a), change });
  }
  if (before.error || after.error) {
    rows.push({
      key: 'error',
      label: 'exception',
      before: before.error ?? 'none',
      after: after.error ?? 'none',
      change: before.error && !after.error ? 'better' : after.error && !before.error ? 'worse' : 'same'
    });
  }
  return rows;
}

/**
 * One line on a `--try` run: `capture_scalar_outputs: graph breaks 1 → 0, graphs 2 → 1`, the rows that
 * changed, improvements first; `… changed nothing counted` when none did.
 */
export function outcomeSummary(tryFix: TryFix): string {
  const changed = outcomeRows(tryFix)
    .filter(r => r.change !== 'same' && r.key !== 'error')
    .sort((a, b) => (a.change === b.change ? 0 : a.change === 'better' ? -1 : 1));
  const what = changed.map(r => `${r.label} ${r.before} → ${r.after}`).join(', ');
  return `${tryFix.fix.name}: ${what || 'changed nothing counted'}`;
}
