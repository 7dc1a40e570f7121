/**
 * What the gutter of the notebook cell's own editor shows for a report (cellGutter.ts draws it), and what a
 * click on a mark opens in the report below the cell. A pure model of the report (view/openMark.ts opens a mark).
 *
 * - A graph break marks the cell line it is at (breakList.ts `cellLine`: its own line, or the line of the
 *   cell whose call led to it); one mark per line, its tooltip naming each break there, most costly first.
 * - A recompile marks the line of the failed guard when the report knows it (the guard's own line in the
 *   earlier compile, else the cell line on the reason's user stack), else the first line of the code that
 *   was compiled again; only for code of the cell.
 * - `lineMatches(report, line, text)`: a mark is drawn on an editor line only while that line's text is the
 *   line the report ran, so a report shown in another cell, or a cell edited since it ran, gets no wrong mark.
 */
import { buildBreakList, costText, type IBreakRow } from './breakList';
import { shortReason } from './guardsModel';
import { failedGuards, ReportIndex } from './model';
import type { CompileReport, Frame } from '../schema';

/** What a mark opens. */
export type MarkTarget = { kind: 'break'; key: string } | { kind: 'recompile'; compileId: string; line: number | null };

/** One gutter mark: a line of the cell and what happened there. */
export interface ICellMark {
  /** 1-based line of the cell (the report's numbering: line 1 is the `%%dynamo` line). */
  line: number;
  kind: 'break' | 'recompile';
  /** The tooltip: one line per break or recompile at this line. */
  title: string;
  /** What a click opens: the first (most costly break; first recompile). */
  targets: MarkTarget[];
}

/**
 * The gutter marks of a report, by line then kind (breaks before recompiles on a line).
 */
export function cellMarks(report: CompileReport, index: ReportIndex = new ReportIndex(report)): ICellMark[] {
  const marks = new Map<string, ICellMark>();
  const add = (line: number, kind: ICellMark['kind'], text: string, target: MarkTarget): void => {
    const key = `${line}:${kind}`;
    const mark = marks.get(key);
    if (mark) {
      mark.title += `\n${text}`;
      mark.targets.push(target);
    } else {
      marks.set(key, { line, kind, title: text, targets: [target] });
    }
  };
  for (const row of buildBreakList(report, index)) {
    if (row.cellLine !== null) {
      add(row.cellLine, 'break', breakTitle(report, row), { kind: 'break', key: row.key });
    }
  }
  for (const frame of report.frames) {
    if (frame.recompile_reasons.length === 0) {
      continue;
    }
    const line = recompileLine(report, index, frame);
    if (line === null) {
      continue;
    }
    const why = frame.recompile_reasons.map(r => shortReason(r.reason)).join('; ');
    add(line.line, 'recompile', `recompile [${frame.compile_id}] of ${frame.code.name}: ${why}`, {
      kind: 'recompile',
      compileId: frame.compile_id,
      line: line.guard ? line.line : null
    });
  }
  return Array.from(marks.values()).sort((a, b) => a.line - b.line || (a.kind === 'break' ? -1 : 1));
}

/** The tooltip line of a break: `graph break: gb_type: reason (in file) · 2 compiles, ran 100×`. */
function breakTitle(report: CompileReport, row: IBreakRow): string {
  const { gb } = row;
  const reason = gb.reason.split('\n', 1)[0];
  const why = reason && reason !== gb.gb_type ? `: ${reason}` : '';
  const inside = gb.filename !== null && gb.filename !== report.cell.filename && row.where ? ` (in ${row.where})` : '';
  return `graph break: ${gb.gb_type}${why}${inside} · ${costText(row).join(', ')}`;
}

/**
 * The cell line of a recompile: the failed guard's line (`guard: true`) when the report knows it, else the
 * first line of the recompiled code; null when the code is not the cell's.
 */
export function recompileLine(
  report: CompileReport,
  index: ReportIndex,
  frame: Frame
): { line: number; guard: boolean } | null {
  const cell = report.cell.filename;
  const previous = index.previousCompile(frame);
  if (previous && (previous.code.in_cell || previous.code.filename === cell)) {
    const lines = [...failedGuards(frame, previous)].map(g => g.line).filter((l): l is number => l !== null);
    if (lines.length > 0) {
      return { line: Math.min(...lines), guard: true };
    }
  }
  // Dynamo words the reason with the user stack of the guard: `File "<cell>", line 4, in accumulate`.
  for (const { reason } of frame.recompile_reasons) {
    const lines = [...reason.matchAll(/File "([^"]+)", line (\d+)/g)].filter(m => m[1] === cell);
    if (lines.length > 0) {
      return { line: Number(lines[lines.length - 1][2]), guard: true };
    }
  }
  if (frame.code.in_cell || frame.code.filename === cell) {
    return { line: frame.code.firstlineno, guard: false };
  }
  return null;
}

/**
 * Is an editor line still the line the report ran? (`text` is the editor's line `line`, 1-based.) The
 * `%%dynamo` line is line 1 of the editor and an empty line 1 of the report: it never carries a mark.
 */
export function lineMatches(report: CompileReport, line: number, text: string): boolean {
  const lines = report.cell.source.split('\n');
  return line >= 1 && line <= lines.length && lines[line - 1] === text;
}
