/**
 * The line a pane draws where the report holds only part of an artifact (schema `parts_cut`: a frame's guards
 * beyond 5,000, a guard tree beyond 1 MB, a bytecode listing beyond 50,000 instructions, a graph's code beyond 1 MB): how much is shown, and a button that loads the whole from the kernel
 * that ran the cell (partsModel.ts, through the view's host). Without a kernel to ask (a saved notebook, the
 * `--html` page) the click says where to see all of it instead. A report read from a trace may leave a big guard
 * tree in its log (`PartCut.log`, kept 0): the kernel that opened it reads it from there.
 */
import type { IViewContext } from '../context';
import { button, h } from '../../dom';
import { applyWhole, embeddedLoader, heldIn, loadKey } from '../../model/partsModel';
import { partLoader } from '../reportHub';
import type { Frame, PartCut } from '../../schema';

/** How a part is named on its line. */
export interface IPartWords {
  /** 'guards' / 'characters of the guard tree' / 'instructions' */
  unit: string;
  /** The TORCH_LOGS artifact that prints all of it: 'guards', 'bytecode', 'graph_code'. */
  logs: string;
}

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * The line for `cut` of `frame`; `loaded()` is called once the whole part is in the report (the pane redraws).
 */
export function partControl(
  ctx: IViewContext,
  frame: Frame,
  cut: PartCut,
  words: IPartWords,
  loaded: () => void
): HTMLElement {
  const status = h('span', { class: 'jp-DynamoExplorer-partStatus' });
  const inLog = cut.log ?? null;
  const inPage = heldIn(cut.key); // the --html page, or the notebook's output, holds the whole: no kernel needed
  const line = h(
    'div',
    { class: 'jp-DynamoExplorer-partCut', data: { part: cut.part, state: 'cut' } },
    h('span', {
      class: 'jp-DynamoExplorer-muted',
      text: inLog
        ? `The report left ${n(cut.total)} ${words.unit} in the trace's log (${inLog.path}). `
        : `The report holds the first ${n(cut.kept)} of ${n(cut.total)} ${words.unit}. `
    })
  );
  const from = inPage ? `this ${inPage}` : inLog ? "the trace's log" : 'the kernel';
  const load = button(`Load all ${n(cut.total)} from ${from}`, () => void run(), {
    class: 'jp-DynamoExplorer-partLoad',
    title: inPage
      ? `This ${inPage} holds it compressed`
      : inLog
        ? 'The kernel that opened the trace reads it from the log'
        : 'The kernel that ran this cell keeps the whole of it while it runs'
  });
  line.append(load, status);
  const run = async (): Promise<void> => {
    const loader = inPage ? embeddedLoader() : partLoader(ctx);
    if (!loader) {
      line.dataset.state = 'no-kernel';
      status.textContent = inLog
        ? ` No kernel to ask here: open the trace in a notebook (%dynamo_open ${inLog.path}), or write a page that ` +
          `holds all of it (dynamo-explorer open ${inLog.path} --html).`
        : ' No kernel to ask here: the kernel that ran this cell keeps it while it runs (run the cell again there), ' +
          `or run with TORCH_LOGS=${words.logs} to print it.`;
      return;
    }
    load.disabled = true;
    line.dataset.state = 'loading';
    status.textContent = ' Loading…';
    try {
      applyWhole(ctx.report, frame, cut, await loadKey(loader, cut.key));
    } catch (error) {
      load.disabled = false;
      line.dataset.state = 'error';
      status.textContent = ` Not loaded: ${(error as Error).message}`;
      return;
    }
    line.dataset.state = 'loaded';
    loaded();
  };
  return line;
}
