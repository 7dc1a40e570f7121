/**
 * Bytecode panes: the original bytecode, and the bytecode Dynamo installed (toggle: depyf's decompiled
 * source). Rows are coloured and linked by source line; `__compiled_fn_*` names link to their FX graph and
 * `__resume_at_*` names to the resume function's frame (bytecodeRefs.ts). In the modified bytecode Dynamo's
 * glue is folded into labelled rows ("call graph", "restore stack", "call resume": `bytecodeModel.findFolds`)
 * that expand on click; the two panes are aligned by source line (`bytecodeAlign.ts`). Both can be turned off
 * in the modified pane's toolbar. Arguments wrap when the pane is narrow and carry their full text as a tooltip.
 */
import { BytecodeAligner, type BytecodeKind, type IDrawnBlock } from './bytecodeAlign';
import {
  bytecodeItems,
  findFolds,
  FOLD_TITLES,
  foldSummary,
  itemLine,
  lineBlocks,
  type BytecodeItem,
  type IFold,
  type ILineBlock
} from '../../model/bytecodeModel';
import type { IViewContext } from '../context';
import { clear, h } from '../../dom';
import { codeBlock } from '../highlight';
import { lineColourClass } from '../linking';
import type { Frame, Instruction } from '../../schema';
import { refLink } from './bytecodeRefs';
import { partCut } from '../../model/partsModel';
import { partControl } from './partControl';
import { Pane, toggle } from './pane';

export type { BytecodeKind } from './bytecodeAlign';

/** Rows drawn at first and per 'show more' (a frame that loads 4,000 parameters has 30,000 instructions). */
const ROW_PAGE = 1500;

/** What one drawing of a listing holds while its pages are drawn. */
interface IDrawing {
  readonly frame: Frame;
  readonly code: Instruction[];
  readonly items: BytecodeItem[];
  readonly blocks: ILineBlock[];
  readonly table: HTMLElement;
  /** The row drawn for each item, as far as drawn. */
  readonly rows: HTMLElement[];
}

/**
 * One bytecode pane.
 */
export class BytecodePane extends Pane {
  private _view: 'bytecode' | 'decompiled' = 'bytecode';
  private _folding = true;
  private readonly _aligner: BytecodeAligner;
  /** The folds opened in the frame shown (by first instruction index); forgotten when another frame is shown. */
  private readonly _expanded = new Set<number>();
  private _expandedFor: Frame | null = null;

  constructor(
    ctx: IViewContext,
    private readonly _kind: BytecodeKind
  ) {
    super(ctx, _kind === 'original' ? 'original-bytecode' : 'modified-bytecode');
    this._aligner = BytecodeAligner.of(ctx);
    this._aligner.attach(_kind, this.body);
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
      this.toolbar.append(
        switchButton(
          'fold glue',
          'fold',
          true,
          'Fold the instructions Dynamo adds around the calls into labelled rows',
          on => {
            this._folding = on;
            void this.redraw();
          }
        ),
        switchButton(
          'align',
          'align',
          true,
          'Align the rows of the original and modified bytecode by source line',
          on => this._aligner.setEnabled(on)
        ),
        t.element
      );
    }
  }

  /**
   * Forget the pane's links and stop the alignment's observers.
   */
  dispose(): void {
    super.dispose();
    this._aligner.dispose();
  }

  /** No frame: the placeholder, scrolled back. */
  protected renderNoFrame(): void {
    this._reset();
    this._aligner.publish(this._kind, null);
    super.renderNoFrame();
  }

  /**
   * Show a frame's bytecode.
   */
  protected async render(frame: Frame): Promise<void> {
    this._reset();
    if (this._expandedFor !== frame) {
      this._expanded.clear();
      this._expandedFor = frame;
    }
    if (this._view === 'decompiled') {
      this._aligner.publish(this._kind, null);
      const text = frame.decompiled_source ?? `# ${frame.decompile_error ?? 'no decompiled source'}`;
      const block = codeBlock(text, 'python');
      block.element.dataset.view = 'decompiled';
      this.body.appendChild(block.element);
      await block.done;
      return;
    }
    const code = this._kind === 'original' ? frame.original_bytecode : frame.modified_bytecode;
    if (code.length === 0) {
      this._aligner.publish(this._kind, null);
      this.showEmpty(
        this._kind === 'modified' ? '<no modified bytecode: Dynamo kept the original code>' : '<no bytecode>'
      );
      return;
    }
    const cut = partCut(this.ctx.report, frame, this._kind === 'original' ? 'original_bytecode' : 'modified_bytecode');
    if (cut) {
      const words = { unit: 'instructions', logs: 'bytecode' };
      this.body.appendChild(partControl(this.ctx, frame, cut, words, () => void this.update(frame)));
    }
    const folds = this._kind === 'modified' && this._folding ? findFolds(code, this._breakLines(frame)) : [];
    const items = bytecodeItems(code, folds);
    const table = h('div', {
      class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-bytecode',
      data: { view: 'bytecode', folded: String(folds.length > 0) }
    });
    this.body.appendChild(table);
    const drawing: IDrawing = {
      frame,
      code,
      items,
      blocks: lineBlocks(items.map(item => itemLine(code, item))),
      table,
      rows: []
    };
    this._rows(drawing, 0);
  }

  /** Empty the body and scroll it back to the start. */
  private _reset(): void {
    clear(this.body);
    this.body.scrollTop = 0;
    this.body.scrollLeft = 0;
  }

  /** The lines of the frame's graph breaks in its own code. */
  private _breakLines(frame: Frame): number[] {
    const { index } = this.ctx;
    const lines: number[] = [];
    for (const gb of frame.graph_breaks) {
      if (gb.line !== null && index.lineKey(gb.filename, gb.line) === index.frameLineKey(frame, gb.line)) {
        lines.push(gb.line);
      }
    }
    return lines;
  }

  /** Draw items from `start` on, a page at a time, and tell the aligner what is drawn. */
  private _rows(drawing: IDrawing, start: number): void {
    const { frame, code, items, table } = drawing;
    const end = Math.min(items.length, start + ROW_PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = start; i < end; i++) {
      const item = items[i];
      if (item.kind === 'fold') {
        const [row, members] = this._foldRows(frame, code, item.fold);
        drawing.rows.push(row);
        fragment.append(row, members);
      } else {
        const row = this._row(frame, code[item.index], null);
        drawing.rows.push(row);
        fragment.appendChild(row);
      }
    }
    table.appendChild(fragment);
    if (end < items.length) {
      const left = items.length - end;
      const more = h('button', {
        class: 'jp-DynamoExplorer-more',
        text: `show ${Math.min(ROW_PAGE, left)} more of ${left} rows`,
        onclick: () => {
          more.remove();
          this._rows(drawing, end);
        }
      });
      more.type = 'button';
      this.body.appendChild(more);
    }
    const blocks: IDrawnBlock[] = drawing.blocks
      .filter(block => block.end <= drawing.rows.length)
      .map(block => ({ line: block.line, first: drawing.rows[block.start] }));
    this._aligner.publish(this._kind, { frame, table, blocks });
  }

  /**
   * One instruction's row; `fold` is the fold it is drawn in (its line links a member that carries none).
   */
  private _row(frame: Frame, ins: Instruction, fold: IFold | null): HTMLElement {
    const arg = h('span', { class: 'jp-DynamoExplorer-argrepr' });
    if (ins.ref) {
      arg.appendChild(refLink(this.ctx, ins.ref, ins.argrepr));
    } else {
      arg.textContent = ins.argrepr;
    }
    const jumps = ins.jump_target !== null ? `jumps to offset ${ins.jump_target}` : '';
    if (ins.argrepr || jumps) {
      arg.title = [ins.argrepr, jumps].filter(Boolean).join(' · ');
    }
    const line = ins.line ?? fold?.line ?? null;
    const row = h(
      'div',
      { class: `jp-DynamoExplorer-row${fold ? ' jp-mod-inFold' : ''}`, data: { offset: String(ins.offset) } },
      h('span', {
        class: 'jp-DynamoExplorer-lineno',
        text: ins.line === null ? '' : String(ins.line),
        title: linenoTitle(ins, fold)
      }),
      h('span', { class: 'jp-DynamoExplorer-jump', text: ins.is_jump_target ? '>>' : '' }),
      h('span', { class: 'jp-DynamoExplorer-offset', text: String(ins.offset) }),
      opnameCell(ins.opname),
      arg
    );
    if (line !== null) {
      row.classList.add(lineColourClass(line));
      this.link(row, this.ctx.index.frameLineKey(frame, line));
    }
    return row;
  }

  /**
   * A folded row (a button that expands it, the callee's link, what it holds) and the group of its
   * instruction rows, drawn when first expanded.
   */
  private _foldRows(frame: Frame, code: Instruction[], fold: IFold): [HTMLElement, HTMLElement] {
    const first = code[fold.start];
    const last = code[fold.end - 1];
    const members = h('div', { class: 'jp-DynamoExplorer-foldBody', data: { foldBody: fold.kind } });
    const mark = h('span', { class: 'jp-DynamoExplorer-foldMark', attrs: { 'aria-hidden': 'true' } });
    const button = h('button', { class: 'jp-DynamoExplorer-foldToggle' }, mark, FOLD_TITLES[fold.kind]);
    button.type = 'button';
    const detail = h('span', { class: 'jp-DynamoExplorer-argrepr' });
    if (fold.ref) {
      detail.append(refLink(this.ctx, fold.ref, fold.ref.name), ' ');
    }
    const summary = foldSummary(fold, this._tracedLines(frame, fold));
    detail.append(h('span', { class: 'jp-DynamoExplorer-foldSummary', text: summary }));
    detail.title = `${FOLD_TITLES[fold.kind]}${fold.ref ? ` ${fold.ref.name}` : ''}: ${summary}`;
    const row = h(
      'div',
      {
        class: 'jp-DynamoExplorer-row jp-DynamoExplorer-fold',
        data: { fold: fold.kind, foldOffset: String(first.offset) }
      },
      h('span', {
        class: 'jp-DynamoExplorer-lineno',
        text: fold.line === null ? '' : String(fold.line),
        title: 'source line'
      }),
      h('span', { class: 'jp-DynamoExplorer-jump', text: first.is_jump_target ? '>>' : '' }),
      h('span', {
        class: 'jp-DynamoExplorer-offset',
        text: String(first.offset),
        title: `offsets ${first.offset}–${last.offset}`
      }),
      h('span', { class: 'jp-DynamoExplorer-opname' }, button),
      detail
    );
    if (fold.line !== null) {
      row.classList.add(lineColourClass(fold.line));
      this.link(row, this.ctx.index.frameLineKey(frame, fold.line));
    }
    const show = (open: boolean): void => {
      if (open && !members.firstChild) {
        this._memberRows(frame, code, fold, members, fold.start);
      }
      members.hidden = !open;
      row.dataset.expanded = String(open);
      button.setAttribute('aria-expanded', String(open));
      button.title = `${open ? 'Fold' : 'Show'} the ${fold.end - fold.start} instructions`;
      mark.textContent = open ? '▾ ' : '▸ ';
    };
    show(this._expanded.has(fold.start));
    button.addEventListener('click', () => {
      const open = !this._expanded.has(fold.start);
      if (open) {
        this._expanded.add(fold.start);
      } else {
        this._expanded.delete(fold.start);
      }
      show(open);
      this._aligner.schedule();
    });
    return [row, members];
  }

  /**
   * Draw a fold's instructions from `start` on, a page at a time (the graph call of a model with 4,000
   * parameters holds 30,000), with a 'show more' row after a page.
   */
  private _memberRows(frame: Frame, code: Instruction[], fold: IFold, members: HTMLElement, start: number): void {
    const end = Math.min(fold.end, start + ROW_PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = start; i < end; i++) {
      fragment.appendChild(this._row(frame, code[i], fold));
    }
    members.appendChild(fragment);
    if (end < fold.end) {
      const left = fold.end - end;
      const more = h('button', {
        class: 'jp-DynamoExplorer-more',
        text: `show ${Math.min(ROW_PAGE, left)} more of ${left} instructions`,
        onclick: () => {
          moreRow.remove();
          this._memberRows(frame, code, fold, members, end);
          this._aligner.schedule();
        }
      });
      more.type = 'button';
      const moreRow = h(
        'div',
        { class: 'jp-DynamoExplorer-row jp-mod-inFold' },
        h('span'),
        h('span'),
        h('span'),
        h('span', {}, more),
        h('span')
      );
      members.appendChild(moreRow);
    }
  }

  /** The source lines, in the frame's own code, of the nodes of the graph a graph call runs. */
  private _tracedLines(frame: Frame, fold: IFold): number[] {
    const { index } = this.ctx;
    const graphId = fold.kind === 'graph-call' ? (fold.ref?.graph_id ?? null) : null;
    const graph = graphId === null ? undefined : index.graphs.get(graphId);
    const lines = new Set<number>();
    for (const node of graph?.nodes ?? []) {
      if (
        node.line !== null &&
        node.op !== 'placeholder' &&
        node.op !== 'output' &&
        index.lineKey(node.filename, node.line) === index.frameLineKey(frame, node.line)
      ) {
        lines.add(node.line);
      }
    }
    return [...lines].sort((x, y) => x - y);
  }
}

/** An opcode cell that may wrap after its underscores (and nowhere else) in a narrow pane. */
function opnameCell(opname: string): HTMLElement {
  const cell = h('span', { class: 'jp-DynamoExplorer-opname' });
  opname.split(/(?<=_)/).forEach((part, i) => {
    if (i > 0) {
      cell.appendChild(document.createElement('wbr'));
    }
    cell.appendChild(document.createTextNode(part));
  });
  return cell;
}

/** The tooltip of a row's line number: a member of a fold without a line is linked by the fold's line. */
function linenoTitle(ins: Instruction, fold: IFold | null): string {
  if (ins.line !== null) {
    return 'source line';
  }
  if (fold?.line !== null && fold?.line !== undefined) {
    return `no source line of its own: linked to line ${fold.line}, as part of the ${FOLD_TITLES[fold.kind]} row`;
  }
  return 'no source line';
}

/**
 * An on/off toolbar button (`aria-pressed`, `jp-mod-selected` while on).
 */
function switchButton(
  label: string,
  action: string,
  initial: boolean,
  title: string,
  onChange: (on: boolean) => void
): HTMLButtonElement {
  const btn = h('button', { class: 'jp-DynamoExplorer-switch', text: label, title, data: { action } });
  btn.type = 'button';
  const set = (on: boolean): void => {
    btn.classList.toggle('jp-mod-selected', on);
    btn.setAttribute('aria-pressed', String(on));
  };
  set(initial);
  btn.addEventListener('click', () => {
    const on = btn.getAttribute('aria-pressed') !== 'true';
    set(on);
    onChange(on);
  });
  return btn;
}
