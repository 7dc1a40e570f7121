/**
 * The graph-break action list (issue 12 item 5), a pure model of the report: every graph break of the cell
 * de-duplicated across all frames and compiles (the same gb_type, file, line and reason is one row), most
 * costly first, each row with where it is for people (`In [3], line 8`), its remedy (Dynamo's explanation,
 * hints and documentation link), how many compiles met it and, when the report has a profile (`--profile`),
 * how many times it ran and the eager time it cost.
 *
 * - `readProfile(report)`: `report.profile` (schema minor 6: `entries[].hits`, `eager[]` with cause 'graph_break'
 *   and `break_index`), or null.
 * - `buildBreakList(report, index)`: the rows, ordered by `compareRows`.
 * - `costText(row)`, `rowSummary(row)`, `formatMs(ms)`: the words the pane, the gutter and the tests share.
 * - `cellLineOf(report, frame, gb)`: the line of the explored cell a break marks.
 */
import { isDataDependent, type ReportIndex } from './model';
import type { CompileReport, Frame, GraphBreak, Profile } from '../schema';

/** One record of a break: the frame (compile) that met it and its index in that frame's `graph_breaks`. */
export interface IBreakOccurrence {
  frame: Frame;
  index: number;
  gb: GraphBreak;
}

/** Eager code a break left out of the graphs: time, ATen ops and how many calls that was measured over. */
export interface IEagerCost {
  ms: number;
  ops: number;
  calls: number;
}

/** One row of the action list: one distinct graph break. */
export interface IBreakRow {
  /** gb_type, file, line and reason: what makes two records the same break. */
  key: string;
  /** The first record met (for its reason, remedy and user stack). */
  gb: GraphBreak;
  /** Every record of it, in compile order. */
  occurrences: IBreakOccurrence[];
  /** The compiles (frames) that met it, each once, in compile order. */
  frames: Frame[];
  /** How many times it ran: the sum of its frames' cache-entry hits; null without a profile. */
  ran: number | null;
  /** Its eager cost; null when the profile attributes none to it (or there is no profile). */
  eager: IEagerCost | null;
  /** Where it is for people: `In [3], line 8`, `line 8`, `torch/nn/modules/module.py:1750`; null without a line. */
  where: string | null;
  /** The line of the explored cell it marks (its own line, or the cell line whose call led to it), or null. */
  cellLine: number | null;
  /** Control flow or values that depend on tensor data. */
  dataDependent: boolean;
}

/**
 * `report.profile` (written by `--profile`, schema minor 6), or null. Its parts are read defensively: a
 * missing list or number counts as nothing measured.
 */
export function readProfile(report: CompileReport): Profile | null {
  const profile = report.profile;
  return profile && typeof profile === 'object' ? profile : null;
}

/** A finite number, else 0 (profile fields are optional). */
function num(value: number | null | undefined): number {
  return typeof value === 'number' && isFinite(value) ? value : 0;
}

/** The key of a break: the same gb_type, file, line and reason is the same break. */
export function breakKey(gb: GraphBreak): string {
  return [gb.gb_type, gb.filename ?? '', gb.line ?? '', gb.reason].join('\u0000');
}

/**
 * Does a filename name the explored cell? (null: a break Dynamo gave no file, in a frame of the cell.)
 */
function isCellFile(report: CompileReport, filename: string | null, frame: Frame): boolean {
  return filename === report.cell.filename || (filename === null && frame.code.in_cell);
}

/**
 * The line of the explored cell a break marks: its own line when it is in the cell, else the innermost
 * line of the cell on its user stack (the call that led to it); null when the cell is not on its stack.
 */
export function cellLineOf(report: CompileReport, frame: Frame, gb: GraphBreak): number | null {
  if (isCellFile(report, gb.filename, frame)) {
    return gb.line;
  }
  const calls = gb.user_stack.filter(s => s.filename === report.cell.filename && s.line !== null);
  return calls.length > 0 ? calls[calls.length - 1].line : null;
}

/**
 * Where a line is for people: `In [3], line 8` for the explored cell when IPython named it (its `sources`
 * label), `line 8` when it has no such label (a script, the CLI), and `ReportIndex.place` for anything else.
 */
export function userLine(index: ReportIndex, filename: string | null, line: number | null): string | null {
  if (line === null) {
    return null;
  }
  const cell = index.report.cell.filename;
  if (filename === null || filename === cell) {
    const label = index.sources.get(cell)?.label;
    return label && /^In \[\d*\]$/.test(label) ? `${label}, line ${line}` : `line ${line}`;
  }
  return index.place(filename, line);
}

/**
 * Most costly first: the eager time a profile attributes to it, then how many times it ran, then how many
 * compiles met it; ties keep the order they were first met in.
 */
export function compareRows(a: IBreakRow, b: IBreakRow): number {
  return (
    (b.eager?.ms ?? -1) - (a.eager?.ms ?? -1) || (b.ran ?? -1) - (a.ran ?? -1) || b.frames.length - a.frames.length
  );
}

/**
 * The action list of a report: one row per distinct graph break, most costly first (`compareRows`).
 */
export function buildBreakList(report: CompileReport, index: ReportIndex): IBreakRow[] {
  const profile = readProfile(report);
  const hits = new Map<string, number>();
  for (const entry of profile?.entries ?? []) {
    if (entry && typeof entry.compile_id === 'string' && typeof entry.hits === 'number') {
      hits.set(entry.compile_id, (hits.get(entry.compile_id) ?? 0) + num(entry.hits));
    }
  }
  const eager = new Map<string, IEagerCost>();
  for (const e of profile?.eager ?? []) {
    if (e && e.cause === 'graph_break' && e.compile_id !== null && typeof e.break_index === 'number') {
      const key = `${e.compile_id}\u0000${e.break_index}`;
      const cost = eager.get(key) ?? { ms: 0, ops: 0, calls: 0 };
      cost.ms += num(e.ms);
      cost.ops += num(e.ops);
      cost.calls += num(e.calls);
      eager.set(key, cost);
    }
  }
  const rows = new Map<string, IBreakRow>();
  for (const frame of report.frames) {
    frame.graph_breaks.forEach((gb, i) => {
      const key = breakKey(gb);
      let row = rows.get(key);
      if (!row) {
        row = {
          key,
          gb,
          occurrences: [],
          frames: [],
          ran: null,
          eager: null,
          where: userLine(index, gb.filename, gb.line),
          cellLine: cellLineOf(report, frame, gb),
          dataDependent: isDataDependent(gb)
        };
        rows.set(key, row);
      }
      row.occurrences.push({ frame, index: i, gb });
      const cost = eager.get(`${frame.compile_id}\u0000${i}`);
      if (cost) {
        row.eager ??= { ms: 0, ops: 0, calls: 0 };
        row.eager.ms += cost.ms;
        row.eager.ops += cost.ops;
        row.eager.calls += cost.calls;
      }
      if (!row.frames.includes(frame)) {
        row.frames.push(frame);
        const ran = hits.get(frame.compile_id);
        if (ran !== undefined) {
          row.ran = (row.ran ?? 0) + ran;
        }
      }
    });
  }
  // Array.prototype.sort is stable: equal rows keep their first-met order.
  return Array.from(rows.values()).sort(compareRows);
}

/**
 * Milliseconds for people: `0.42 ms`, `12.3 ms`, `845 ms`, `1.24 s`.
 */
export function formatMs(ms: number): string {
  if (ms >= 1000) {
    return `${(ms / 1000).toFixed(2)} s`;
  }
  if (ms >= 100) {
    return `${Math.round(ms)} ms`;
  }
  return `${ms.toFixed(ms >= 10 ? 1 : 2)} ms`;
}

/**
 * The cost words of a row: `2 compiles`, `ran 100×`, `12.3 ms eager (400 ATen ops)`; what is unknown is left out.
 */
export function costText(row: IBreakRow): string[] {
  const out = [`${row.frames.length} compile${row.frames.length === 1 ? '' : 's'}`];
  if (row.ran !== null) {
    out.push(`ran ${row.ran}×`);
  }
  if (row.eager) {
    out.push(`${formatMs(row.eager.ms)} eager${row.eager.ops > 0 ? ` (${row.eager.ops} ATen ops)` : ''}`);
  }
  return out;
}

/**
 * One line about a row: `Data-dependent branching at In [3], line 8: 2 compiles, ran 100×, 12.3 ms eager`.
 */
export function rowSummary(row: IBreakRow): string {
  return `${row.gb.gb_type}${row.where ? ` at ${row.where}` : ''}: ${costText(row).join(', ')}`;
}
