/**
 * CUDA graphs (mode reduce-overhead, report.cudagraphs, minor 8) in words: what became of them for each graph a
 * frame compiled, for the frame title's row and the frame chip's badge (view/cudagraphs.ts draws both). Inductor's
 * skip reason is shown in the engine's few words (`reason_text`, minor 15: compiler/summary.py
 * `cudagraphs_reason`), never worked out here again. A report before minor 8 has no rows.
 */
import { legacyReasonText } from './legacyWords';
import type { CompileReport, CudaGraph, Frame } from '../schema';

/** Words for each state. */
const STATUS_TEXT: Record<CudaGraph['status'], string> = {
  recorded: 'recorded',
  rerecorded: 're-recorded',
  skipped: 'skipped',
  not_recorded: 'not recorded'
};

/** `2 replays`, `1 eager run`. */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The CUDA graph rows of a frame, in compile order (none in a report before minor 8). */
export function cudagraphsOf(report: CompileReport, compileId: string): CudaGraph[] {
  return (report.cudagraphs ?? []).filter(c => c.compile_id === compileId);
}

/**
 * Inductor's skip reason in a few words, as the engine wrote it (`reason_text`): 'cpu device (arg0_1)', 'no CUDA
 * device' for a CPU graph; '' when the row has no reason. A report before minor 15 carries no such field.
 */
export function reasonText(row: Pick<CudaGraph, 'reason' | 'reason_text'>): string {
  return row.reason_text === undefined ? legacyReasonText(row) : (row.reason_text ?? '');
}

/** One row in words: 'forward: skipped (no CUDA device)', 'inference: recorded (1 recording · 98 replays / 2 eager runs)'. */
export function cudagraphText(row: CudaGraph): string {
  const notes: string[] = [];
  if (row.status === 'skipped') {
    const why = reasonText(row);
    if (why) {
      notes.push(row.from_forward ? `with its forward: ${why}` : why);
    }
    if (row.skipped_at === 'run') {
      notes.push('at run time');
    }
  } else if (row.status === 'not_recorded') {
    notes.push(row.warmups > 0 ? `${count(row.warmups, 'warm-up')} only` : 'not called');
  } else {
    notes.push(count(row.recordings, 'recording'));
    if (row.partitions !== null && row.partitions > 1) {
      notes.push(`${row.partitions} partitions`);
    }
  }
  if (row.calls !== null && row.replays !== null && row.eager_runs !== null) {
    notes.push(`${count(row.replays, 'replay')} / ${count(row.eager_runs, 'eager run')}`);
  }
  return `${row.kind}: ${STATUS_TEXT[row.status] ?? row.status}${notes.length ? ` (${notes.join(' · ')})` : ''}`;
}

/** The tooltip of a row: inductor's words in full, the re-record reasons, and what it means. */
export function cudagraphTitle(row: CudaGraph): string {
  return [
    row.reason ? `inductor: ${row.reason.trim()}` : '',
    row.rerecord_reasons.length ? `recorded again because: ${row.rerecord_reasons.join('; ')}` : '',
    row.explanation ?? '',
    row.calls !== null ? `${count(row.calls, 'call')} (--profile)` : ''
  ]
    .filter(Boolean)
    .join('\n');
}

/** The frame's CUDA graphs in one state, for its chip's badge. */
export interface ICudaGraphState {
  /** skipped: any graph of the frame was; recorded: every graph was (or re-recorded); else not_recorded. */
  state: 'skipped' | 'recorded' | 'not_recorded';
  /** The badge: 'no CUDA graph', 'CUDA graph', 'CUDA graph?'. */
  text: string;
  /** Every row in words, one a line (`cudagraphText`). */
  title: string;
}

/** The frame's CUDA graphs in one state, or null when none of its graphs asked for CUDA graphs. */
export function cudagraphState(report: CompileReport, frame: Frame): ICudaGraphState | null {
  const rows = cudagraphsOf(report, frame.compile_id);
  if (rows.length === 0) {
    return null;
  }
  const skipped = rows.some(c => c.status === 'skipped');
  const recorded = rows.filter(c => c.status === 'recorded' || c.status === 'rerecorded');
  const state = skipped ? 'skipped' : recorded.length === rows.length ? 'recorded' : 'not_recorded';
  const text = state === 'skipped' ? 'no CUDA graph' : state === 'recorded' ? 'CUDA graph' : 'CUDA graph?';
  return { state, text, title: rows.map(cudagraphText).join('\n') };
}
