/**
 * Bytecode panes: the original bytecode, and the bytecode Dynamo installed (toggle: depyf's decompiled
 * source). Rows are coloured by source line; `__compiled_fn_*` names link to their FX graph and
 * `__resume_at_*` names to the resume function's frame.
 */
import type { IViewContext } from '../context';
import { clear, h } from '../dom';
import { codeBlock } from '../highlight';
import { lineColourClass } from '../linking';
import type { Frame, Instruction, NameRef } from '../schema';
import { Pane, toggle } from './pane';

/** Rows drawn at first and per 'show more' (a frame that loads 4,000 parameters has 30,000 instructions). */
const ROW_PAGE = 1500;

/** Which bytecode a pane shows. */
export type BytecodeKind = 'original' | 'modified';

/**
 * One bytecode pane.
 */
export class BytecodePane extends Pane {
  private _view: 'bytecode' | 'decompiled' = 'bytecode';

  constructor(
    ctx: IViewContext,
    private readonly _kind: BytecodeKind
  ) {
    super(ctx, _kind === 'original' ? 'original-bytecode' : 'modified-bytecode');
    if (_kind === 'modified') {
      const t = toggle<'bytecode' | 'decompiled'>(
        [
          ['bytecode', 'bytecode'],
          ['decompiled', 'decompiled']
        ],
        'bytecode',
        value => {
          this._view = value;
          void this.redraw();
        }
      );
      this.toolbar.appendChild(t.element);
    }
  }

  /** No frame: the placeholder, scrolled back. */
  protected renderNoFrame(): void {
    this._reset();
    super.renderNoFrame();
  }

  /**
   * Show a frame's bytecode.
   */
  protected async render(frame: Frame): Promise<void> {
    this._reset();
    if (this._view === 'decompiled') {
      const text = frame.decompiled_source ?? `# ${frame.decompile_error ?? 'no decompiled source'}`;
      const block = codeBlock(text, 'python');
      block.element.dataset.view = 'decompiled';
      this.body.appendChild(block.element);
      await block.done;
      return;
    }
    const code = this._kind === 'original' ? frame.original_bytecode : frame.modified_bytecode;
    if (code.length === 0) {
      this.showEmpty(
        this._kind === 'modified' ? '<no modified bytecode: Dynamo kept the original code>' : '<no bytecode>'
      );
      return;
    }
    const table = h('div', { class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-bytecode', data: { view: 'bytecode' } });
    this.body.appendChild(table);
    this._rows(frame, code, table, 0);
  }

  /** Empty the body and scroll it back to the start. */
  private _reset(): void {
    clear(this.body);
    this.body.scrollTop = 0;
    this.body.scrollLeft = 0;
  }

  /** Draw rows from `start` on, a page at a time. */
  private _rows(frame: Frame, code: Instruction[], table: HTMLElement, start: number): void {
    const end = Math.min(code.length, start + ROW_PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = start; i < end; i++) {
      fragment.appendChild(this._row(frame, code[i]));
    }
    table.appendChild(fragment);
    if (end < code.length) {
      const more = h('button', {
        class: 'jp-DynamoExplorer-more',
        text: `show ${Math.min(ROW_PAGE, code.length - end)} more of ${code.length - end} instructions`,
        onclick: () => {
          more.remove();
          this._rows(frame, code, table, end);
        }
      });
      more.type = 'button';
      this.body.appendChild(more);
    }
  }

  private _row(frame: Frame, ins: Instruction): HTMLElement {
    const arg = h('span', { class: 'jp-DynamoExplorer-argrepr' });
    if (ins.ref) {
      arg.appendChild(this._refLink(ins.ref, ins.argrepr));
    } else {
      arg.textContent = ins.argrepr;
    }
    if (ins.jump_target !== null) {
      arg.title = `jumps to offset ${ins.jump_target}`;
    }
    const row = h(
      'div',
      { class: 'jp-DynamoExplorer-row', data: { offset: String(ins.offset) } },
      h('span', {
        class: 'jp-DynamoExplorer-lineno',
        text: ins.line === null ? '' : String(ins.line),
        title: 'source line'
      }),
      h('span', { class: 'jp-DynamoExplorer-jump', text: ins.is_jump_target ? '>>' : '' }),
      h('span', { class: 'jp-DynamoExplorer-offset', text: String(ins.offset) }),
      h('span', { class: 'jp-DynamoExplorer-opname', text: ins.opname }),
      arg
    );
    if (ins.line !== null) {
      row.classList.add(lineColourClass(ins.line));
      this.link(row, this.ctx.index.frameLineKey(frame, ins.line));
    }
    return row;
  }

  private _refLink(ref: NameRef, text: string): HTMLElement {
    const link = this._refElement(ref, text);
    if (link.tagName === 'A') {
      link.addEventListener('keydown', event => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          link.click();
        }
      });
    }
    return link;
  }

  private _refElement(ref: NameRef, text: string): HTMLElement {
    const { index } = this.ctx;
    if (ref.kind === 'compiled_fn' && ref.graph_id !== null && index.graphs.has(ref.graph_id)) {
      const graphId = ref.graph_id;
      return h('a', {
        class: 'jp-DynamoExplorer-ref',
        text: `${shortName(text || ref.name)} → graph ${graphId}`,
        title: `${ref.name}: show FX graph ${graphId}`,
        data: { refKind: 'compiled_fn', graphId: String(graphId) },
        attrs: { role: 'link', tabindex: '0' },
        onclick: () => void this.ctx.showGraph(graphId)
      });
    }
    if (ref.kind === 'resume' && ref.compile_id !== null && index.frames.has(ref.compile_id)) {
      const compileId = ref.compile_id;
      return h('a', {
        class: 'jp-DynamoExplorer-ref',
        text: `${shortName(text || ref.name)} → [${compileId}]`,
        title: `${ref.name}: show frame [${compileId}]`,
        data: { refKind: 'resume', compileId },
        attrs: { role: 'link', tabindex: '0' },
        onclick: () => void this.ctx.selectFrame(compileId)
      });
    }
    return h('span', {
      class: 'jp-DynamoExplorer-refName',
      text: text || ref.name,
      title: `${ref.kind}: ${ref.name}`,
      data: { refKind: ref.kind }
    });
  }
}

/** Drop the uuid Dynamo appends to compiled-function globals: '__compiled_fn_1_e979fff3_..._4d74' -> '__compiled_fn_1'. */
export function shortName(name: string): string {
  return name.replace(/_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}/g, '');
}
