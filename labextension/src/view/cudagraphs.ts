/**
 * CUDA graphs (mode reduce-overhead): what became of them for each graph a frame compiled (report.cudagraphs,
 * minor 8). The frame title gets a row (each compiled graph's state, inductor's reason, the recordings and, with
 * --profile, replays versus eager runs; a click shows the graph), and the frame's chip in the frame navigator a
 * small badge. The words are model/cudagraphsModel.ts's; the row is registered in view/frameExtras.ts (section
 * 'cudagraphs'). A report before minor 8 has no such field and shows nothing.
 */
import type { IViewContext } from './context';
import { button, h } from '../dom';
import { cudagraphState, cudagraphsOf, cudagraphText, cudagraphTitle } from '../model/cudagraphsModel';
import type { CompileReport, Frame } from '../schema';

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
    { class: 'jp-DynamoExplorer-symbols jp-DynamoExplorer-cudagraphs' },
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
  const badge = cudagraphState(report, frame);
  if (!badge) {
    return null;
  }
  return h('span', {
    class: `jp-DynamoExplorer-cudagraphBadge jp-mod-${badge.state}`,
    text: badge.text,
    title: badge.title,
    data: { cudagraphs: badge.state }
  });
}
