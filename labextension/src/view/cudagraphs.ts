/**
 * CUDA graphs (mode reduce-overhead): what became of them for each graph a frame compiled (report.cudagraphs,
 * minor 8). The frame title gets a row (each compiled graph's state, inductor's reason, the recordings and, with
 * --profile, replays versus eager runs; a click shows the graph), and the frame's chip in the frame navigator a
 * small badge. A report before minor 8 has no such field and shows nothing.
 */
import type { IViewContext } from './context';
import { button, h, plural } from '../dom';
import type { CompileReport, CudaGraph, Frame } from '../schema';

/** Words for each state. */
const STATUS_TEXT: Record<CudaGraph['status'], string> = {
  recorded: 'recorded',
  rerecorded: 're-recorded',
  skipped: 'skipped',
  not_recorded: 'not recorded'
};

/** The prefixes inductor puts before a skip reason (sometimes twice). */
const SKIP_PREFIXES = ['skipping cudagraphs due to ', 'skipping cudagraph due to ', 'disabling cudagraphs due to '];

/** The CUDA graph rows of a frame, in compile order (none in a report before minor 8). */
export function cudagraphsOf(report: CompileReport, compileId: string): CudaGraph[] {
  return (report.cudagraphs ?? []).filter(c => c.compile_id === compileId);
}

/**
 * Inductor's skip reason in a few words, as compiler/summary.py `cudagraphs_reason` writes it: without
 * 'skipping cudagraphs due to ' and the stack trace; 'no CUDA device' for a CPU graph.
 */
export function reasonText(reason: string | null | undefined): string {
  let text = (reason ?? '').trim();
  for (let again = true; again;) {
    again = false;
    for (const prefix of SKIP_PREFIXES) {
      if (text.startsWith(prefix)) {
        text = text.slice(prefix.length);
        again = true;
      }
    }
  }
  text = text.split('\n')[0].split('. Found from')[0].split(' Found from')[0].trim().replace(/\.$/, '');
  return text === 'multiple devices:' || text === 'multiple devices' ? 'no CUDA device' : text;
}

/** One row in words: 'forward: skipped (no CUDA device)', 'inference: recorded (1 recording · 98 replays / 2 eager runs)'. */
export function cudagraphText(row: CudaGraph): string {
  const notes: string[] = [];
  if (row.status === 'skipped') {
    const why = reasonText(row.reason);
    if (why) {
      notes.push(row.from_forward ? `with its forward: ${why}` : why);
    }
    if (row.skipped_at === 'run') {
      notes.push('at run time');
    }
  } else if (row.status === 'not_recorded') {
    notes.push(row.warmups > 0 ? `${plural(row.warmups, 'warm-up')} only` : 'not called');
  } else {
    notes.push(plural(row.recordings, 'recording'));
    if (row.partitions !== null && row.partitions > 1) {
      notes.push(`${row.partitions} partitions`);
    }
  }
  if (row.calls !== null && row.replays !== null && row.eager_runs !== null) {
    notes.push(`${plural(row.replays, 'replay')} / ${plural(row.eager_runs, 'eager run')}`);
  }
  return `${row.kind}: ${STATUS_TEXT[row.status] ?? row.status}${notes.length ? ` (${notes.join(' · ')})` : ''}`;
}

/** The tooltip of a row: inductor's words in full, the re-record reasons, and what it means. */
function cudagraphTitle(row: CudaGraph): string {
  return [
    row.reason ? `inductor: ${row.reason.trim()}` : '',
    row.rerecord_reasons.length ? `recorded again because: ${row.rerecord_reasons.join('; ')}` : '',
    row.explanation ?? '',
    row.calls !== null ? `${plural(row.calls, 'call')} (--profile)` : ''
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The frame title's row of what became of CUDA graphs for each graph the frame compiled, or null when none asked
 * for them. Each entry opens its AOT graph in the FX pane when the report has it.
 */
export function frameCudaGraphs(ctx: IViewContext, frame: Frame): HTMLElement | null {
  const rows = cudagraphsOf(ctx.report, frame.compile_id);
  if (rows.length === 0) {
    return null;
  }
  const row = h(
    'div',
    { class: 'jp-DynamoExplorer-symbols jp-DynamoExplorer-cudagraphs', data: { section: 'cudagraphs' } },
    h('span', {
      class: 'jp-DynamoExplorer-muted',
      text: 'CUDA graphs:',
      title:
        'mode reduce-overhead: inductor records each compiled graph as a CUDA graph and replays it, unless it skips ' +
        'the graph (its reason) or records it again (TORCH_LOGS=cudagraphs)'
    })
  );
  for (const c of rows) {
    const text = cudagraphText(c);
    const graphId = c.graph_id;
    const item = h(
      'span',
      {
        class: `jp-DynamoExplorer-cudagraph jp-mod-${c.status}`,
        title: cudagraphTitle(c),
        data: { kind: c.kind, status: c.status }
      },
      graphId !== null
        ? button(text, () => void ctx.showGraph(graphId), { class: 'jp-DynamoExplorer-link' })
        : h('span', { text })
    );
    if (c.status === 'skipped' && c.explanation) {
      item.appendChild(h('span', { class: 'jp-DynamoExplorer-muted', text: ` ${c.explanation}` }));
    }
    row.appendChild(item);
  }
  return row;
}

/** The frame chip's badge: 'CUDA graph' when every graph of the frame was recorded, 'no CUDA graph' when any was
 * skipped, 'CUDA graph?' otherwise; null when none asked for CUDA graphs. */
export function cudagraphBadge(report: CompileReport, frame: Frame): HTMLElement | null {
  const rows = cudagraphsOf(report, frame.compile_id);
  if (rows.length === 0) {
    return null;
  }
  const skipped = rows.filter(c => c.status === 'skipped');
  const recorded = rows.filter(c => c.status === 'recorded' || c.status === 'rerecorded');
  const state = skipped.length > 0 ? 'skipped' : recorded.length === rows.length ? 'recorded' : 'not_recorded';
  const text = state === 'skipped' ? 'no CUDA graph' : state === 'recorded' ? 'CUDA graph' : 'CUDA graph?';
  return h('span', {
    class: `jp-DynamoExplorer-cudagraphBadge jp-mod-${state}`,
    text,
    title: rows.map(cudagraphText).join('\n'),
    data: { cudagraphs: state }
  });
}
