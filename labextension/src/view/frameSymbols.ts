/**
 * The dynamic-shape facts of a frame, for the frame title at the top of the main column: its symbols
 * (`s0 = L['x'].size()[0] = 8, [2, int_oo]`, each with a link to the line that first used it), and the inputs
 * Dynamo's automatic dynamic shapes held dynamic, with who marked them (this compile, an earlier compile of the
 * run, or an earlier run in the process: frames[].automatic_dynamic). The words are model/shapeText.ts's; both rows
 * are registered in view/frameExtras.ts, whose ids the view sets as their `data-section`.
 */
import type { IViewContext } from './context';
import { button, h } from '../dom';
import { dynamicText, markedText, symbolText, symbolsOf } from '../model/shapeText';
import type { Frame } from '../schema';

/**
 * The row of a frame's dynamic-shape symbols, or null when the frame has none (a static compile).
 */
export function frameSymbols(ctx: IViewContext, frame: Frame): HTMLElement | null {
  const symbols = symbolsOf(ctx.report, frame.compile_id);
  if (symbols.length === 0) {
    return null;
  }
  const row = h(
    'div',
    { class: 'jp-DynamoExplorer-symbols' },
    h('span', {
      class: 'jp-DynamoExplorer-muted',
      text: 'dynamic shapes:',
      title: 'Symbols Dynamo traced this frame with: symbol = source = value when created, value range'
    })
  );
  for (const symbol of symbols) {
    const line = symbol.line;
    row.appendChild(
      h(
        'span',
        { class: 'jp-DynamoExplorer-symbol', data: { symbol: symbol.symbol } },
        h('code', { text: symbolText(symbol) }),
        line !== null
          ? button(`line ${line}`, () => void ctx.jumpToLine(frame, line), { class: 'jp-DynamoExplorer-link' })
          : null
      )
    );
  }
  return row;
}

/**
 * The row of a frame's inputs held dynamic by automatic dynamic shapes, or null when there are none.
 */
export function frameAutomaticDynamic(frame: Frame): HTMLElement | null {
  const inputs = frame.automatic_dynamic ?? [];
  if (inputs.length === 0) {
    return null;
  }
  const row = h(
    'div',
    { class: 'jp-DynamoExplorer-symbols' },
    h('span', {
      class: 'jp-DynamoExplorer-muted',
      text: 'automatic dynamic:',
      title:
        "Inputs Dynamo's automatic dynamic shapes hold dynamic for this code: an input whose size (or int value) " +
        'changed between compiles is traced symbolically from then on (TORCH_LOGS=dynamic)'
    })
  );
  for (const d of inputs) {
    row.appendChild(
      h(
        'span',
        {
          class: 'jp-DynamoExplorer-symbol',
          data: { source: d.source, markedIn: d.marked_in ?? 'earlier-run' }
        },
        h('code', { text: dynamicText(d) }),
        h('span', { class: 'jp-DynamoExplorer-muted', text: ` ${markedText(d, frame)}` })
      )
    );
  }
  return row;
}
