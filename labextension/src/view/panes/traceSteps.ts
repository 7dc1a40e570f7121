/**
 * Step-through pane (`--trace-steps`): Dynamo's symbolic execution of one frame, one instruction at a time.
 * Forward and back with the buttons, the slider, or the keys when the pane has focus (→ or j: next, ← or k:
 * back, Home / End: first / last, b: next graph break). Each step shows together: the user line in the code
 * being run (the frame's, or an inlined callee's, with the call stack as a breadcrumb), the bytecode row, the
 * symbolic stack and locals the instruction starts from, the FX nodes it added, and the graph break it met.
 * The steps come from report.trace_steps (compiler/collectors/trace_steps.py, [Note: trace steps]); what they
 * mean is model/traceStepsModel.ts.
 */
import type { IViewContext } from '../context';
import { append, button, clear, h, plural } from '../../dom';
import { lineColourClass } from '../linking';
import type { Frame, TraceCode, TraceStep, TraceSteps } from '../../schema';
import { attemptText, breakText, callStack, localsAt, nextBreak, NOT_RECORDED } from '../../model/traceStepsModel';
import { emptyState, Pane } from './pane';

/** The drawn listings of one code: its source lines and bytecode rows, built once. */
interface ICodeView {
  source: HTMLElement;
  lines: Map<number, HTMLElement>;
  bytecode: HTMLElement;
  rows: Map<number, HTMLElement>;
}

/**
 * The step-through pane. It shows one compile (report-wide): a frame selection does not change it.
 */
export class TraceStepsPane extends Pane {
  /** The recorded trace, or null when the run had no --trace-steps. */
  readonly trace: TraceSteps | null;
  private _index = 0;
  private readonly _views = new Map<number, ICodeView>();
  private _shownCode = -1;
  private _current: HTMLElement[] = [];
  private readonly _parts: {
    counter: HTMLElement;
    slider: HTMLInputElement;
    attempt: HTMLElement;
    crumbs: HTMLElement;
    instruction: HTMLElement;
    source: HTMLElement;
    bytecode: HTMLElement;
    stack: HTMLElement;
    locals: HTMLElement;
    nodes: HTMLElement;
    brk: HTMLElement;
  } | null = null;

  constructor(ctx: IViewContext) {
    super(ctx, 'trace-steps');
    const trace = ctx.report.trace_steps ?? null;
    this.trace = trace;
    if (!trace) {
      this.body.appendChild(emptyState(NOT_RECORDED));
      return;
    }
    const head = h('div', { class: 'jp-DynamoExplorer-traceHead' });
    if (trace.compile_id) {
      head.appendChild(
        h('span', {
          text:
            `${trace.code_name} [${trace.compile_id}]: ${plural(trace.total_steps, 'instruction')} ` +
            `in ${plural(trace.attempts.length, 'attempt')}`
        })
      );
    }
    if (trace.note) {
      head.appendChild(h('span', { class: 'jp-DynamoExplorer-traceNote', text: trace.note }));
    }
    this.body.appendChild(head);
    if (trace.steps.length === 0) {
      this.body.appendChild(emptyState('No instructions were recorded.'));
      return;
    }
    const slider = h('input', {
      class: 'jp-DynamoExplorer-traceSlider',
      attrs: { type: 'range', min: '0', max: String(trace.steps.length - 1), value: '0', 'aria-label': 'step' }
    });
    slider.addEventListener('input', () => this.show(Number(slider.value)));
    const counter = h('span', { class: 'jp-DynamoExplorer-traceCounter' });
    this.toolbar.append(
      button('|◀', () => this.show(0), { title: 'First step (Home)', data: { action: 'first' } }),
      button('◀', () => this.show(this._index - 1), { title: 'Back (← or k)', data: { action: 'back' } }),
      button('▶', () => this.show(this._index + 1), { title: 'Forward (→ or j)', data: { action: 'forward' } }),
      button('▶|', () => this.show(trace.steps.length - 1), { title: 'Last step (End)', data: { action: 'last' } }),
      button('next break', () => this._toBreak(), { title: 'Next graph break (b)', data: { action: 'break' } }),
      slider,
      counter
    );
    const col = (label: string, child: HTMLElement): HTMLElement =>
      h(
        'div',
        { class: 'jp-DynamoExplorer-traceCol' },
        h('div', { class: 'jp-DynamoExplorer-traceLabel', text: label }),
        child
      );
    const parts = {
      counter,
      slider,
      attempt: h('div', { class: 'jp-DynamoExplorer-traceAttempt' }),
      crumbs: h('div', { class: 'jp-DynamoExplorer-traceCrumbs' }),
      instruction: h('div', { class: 'jp-DynamoExplorer-traceInstruction' }),
      source: h('div', { class: 'jp-DynamoExplorer-traceSource' }),
      bytecode: h('div', { class: 'jp-DynamoExplorer-traceBytecode' }),
      stack: h('ol', { class: 'jp-DynamoExplorer-traceStack' }),
      locals: h('dl', { class: 'jp-DynamoExplorer-traceLocals' }),
      nodes: h('ul', { class: 'jp-DynamoExplorer-traceNodes' }),
      brk: h('div', { class: 'jp-DynamoExplorer-traceBreak' })
    };
    this._parts = parts;
    const state = h(
      'div',
      { class: 'jp-DynamoExplorer-traceState' },
      h('div', { class: 'jp-DynamoExplorer-traceLabel', text: 'Symbolic stack (top last)' }),
      parts.stack,
      h('div', { class: 'jp-DynamoExplorer-traceLabel', text: 'Symbolic locals' }),
      parts.locals,
      h('div', { class: 'jp-DynamoExplorer-traceLabel', text: 'FX nodes added' }),
      parts.nodes
    );
    this.body.append(
      parts.attempt,
      parts.crumbs,
      parts.instruction,
      parts.brk,
      h(
        'div',
        { class: 'jp-DynamoExplorer-traceColumns' },
        col('Source', parts.source),
        col('Bytecode', parts.bytecode),
        col('State', state)
      )
    );
    this.element.tabIndex = 0;
    this.element.addEventListener('keydown', this._onKey);
    this.show(0);
  }

  /** The step shown now. */
  get index(): number {
    return this._index;
  }

  /** Show step `i` (clamped to the recorded steps): every column moves to it together. */
  show(i: number): void {
    const trace = this.trace;
    const parts = this._parts;
    if (!trace || !parts || trace.steps.length === 0) {
      return;
    }
    i = Math.max(0, Math.min(trace.steps.length - 1, i));
    this._index = i;
    const step = trace.steps[i];
    this.element.dataset.step = String(i);
    parts.counter.textContent = `step ${i + 1} / ${trace.steps.length}`;
    parts.slider.value = String(i);
    const attempt = trace.attempts.find(a => a.attempt === step.attempt);
    parts.attempt.textContent = `Attempt ${step.attempt}` + (attempt ? ` (${attemptText(attempt.outcome)})` : '');
    clear(parts.crumbs);
    callStack(trace, i).forEach((site, k) => {
      if (k > 0) {
        parts.crumbs.appendChild(h('span', { class: 'jp-DynamoExplorer-traceSep', text: ' › ' }));
      }
      parts.crumbs.appendChild(
        h('span', {
          class: 'jp-DynamoExplorer-traceCrumb',
          text: `${site.name}${site.line !== null ? `:${site.line}` : ''}`,
          title: site.depth === 0 ? 'the frame being compiled' : `inlined call, depth ${site.depth}`
        })
      );
    });
    clear(parts.instruction);
    append(
      parts.instruction,
      h('span', { class: 'jp-DynamoExplorer-traceDepth', text: '  '.repeat(step.depth) }),
      h('span', { class: 'jp-DynamoExplorer-traceOp', text: step.opname }),
      step.argrepr ? h('span', { class: 'jp-DynamoExplorer-traceArg', text: ` ${step.argrepr}` }) : null,
      step.line !== null ? h('span', { class: 'jp-DynamoExplorer-traceLine', text: `  line ${step.line}` }) : null
    );
    this._showCode(step);
    this._fill(
      parts.stack,
      step.stack.length
        ? step.stack.map(v => h('li', { text: v }))
        : [h('li', { class: 'jp-DynamoExplorer-muted', text: '(empty)' })]
    );
    const { values, changed } = localsAt(trace, i);
    const items: HTMLElement[] = [];
    for (const [name, value] of values) {
      const mod = changed.has(name) ? ' jp-mod-changed' : '';
      items.push(h('dt', { class: mod.trim(), text: name }), h('dd', { class: mod.trim(), text: value }));
    }
    this._fill(parts.locals, items);
    this._fill(
      parts.nodes,
      step.fx_nodes.length
        ? step.fx_nodes.map(n => this._nodeItem(n.name, n.op, n.target, step))
        : [h('li', { class: 'jp-DynamoExplorer-muted', text: '(none)' })]
    );
    clear(parts.brk);
    const gb = step.graph_break;
    this.element.classList.toggle('jp-mod-break', !!gb);
    if (gb) {
      append(
        parts.brk,
        h('div', { class: 'jp-DynamoExplorer-traceBreakHead', text: breakText(gb) }),
        gb.gb_type ? h('div', { class: 'jp-DynamoExplorer-traceBreakType', text: gb.gb_type }) : null,
        h('pre', { class: 'jp-DynamoExplorer-traceBreakReason', text: gb.reason })
      );
    }
  }

  /** The pane shows one compile: a frame selection changes nothing. */
  protected render(_frame: Frame): void {
    return;
  }

  /** Nothing changes without a frame either. */
  protected renderNoFrame(): void {
    return;
  }

  private _fill(where: HTMLElement, children: HTMLElement[]): void {
    clear(where);
    where.append(...children);
  }

  private _nodeItem(name: string, op: string, target: string, step: TraceStep): HTMLElement {
    const item = h('li', { data: { node: name } }, h('code', { text: name }), ` ${op} ${target}`);
    const graph = this._graphWith(name, step);
    if (graph !== null) {
      item.appendChild(
        button('show', () => void this.ctx.showNode(graph, name), { title: 'Show in the FX graph pane' })
      );
    }
    return item;
  }

  /** The report's Dynamo graph holding a node of this step's compile, for the last attempt (the one kept). */
  private _graphWith(name: string, step: TraceStep): number | null {
    const trace = this.trace;
    if (!trace || !trace.compile_id) {
      return null;
    }
    const last = trace.attempts[trace.attempts.length - 1];
    if (!last || step.attempt !== last.attempt) {
      return null;
    }
    const graph = this.ctx.report.graphs.find(
      g => g.compile_id === trace.compile_id && g.kind.startsWith('dynamo') && g.nodes.some(n => n.name === name)
    );
    return graph ? graph.id : null;
  }

  private _showCode(step: TraceStep): void {
    const parts = this._parts;
    const trace = this.trace;
    if (!parts || !trace) {
      return;
    }
    let view = this._views.get(step.code);
    if (!view) {
      view = buildCodeView(trace.codes[step.code]);
      this._views.set(step.code, view);
    }
    if (this._shownCode !== step.code) {
      this._fill(parts.source, [view.source]);
      this._fill(parts.bytecode, [view.bytecode]);
      this._shownCode = step.code;
    }
    for (const el of this._current) {
      el.classList.remove('jp-mod-current');
    }
    const line = step.line !== null ? view.lines.get(step.line) : undefined;
    const row = step.offset !== null ? view.rows.get(step.offset) : undefined;
    this._current = [line, row].filter((el): el is HTMLElement => !!el);
    for (const el of this._current) {
      el.classList.add('jp-mod-current');
      el.scrollIntoView?.({ block: 'nearest' });
    }
  }

  private _toBreak(): void {
    const trace = this.trace;
    if (!trace) {
      return;
    }
    const next = nextBreak(trace, this._index + 1);
    if (next !== null) {
      this.show(next);
    }
  }

  private readonly _onKey = (event: KeyboardEvent): void => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => this.show(this._index + 1),
      j: () => this.show(this._index + 1),
      ArrowLeft: () => this.show(this._index - 1),
      k: () => this.show(this._index - 1),
      Home: () => this.show(0),
      End: () => this.show((this.trace?.steps.length ?? 1) - 1),
      b: () => this._toBreak()
    };
    const target = event.target as HTMLElement | null;
    if (target && target.tagName === 'INPUT' && event.key !== 'b' && event.key !== 'j' && event.key !== 'k') {
      return; // the slider moves itself with the arrows and Home/End
    }
    const act = keys[event.key];
    if (act && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      event.stopPropagation(); // JupyterLab's notebook would move between cells
      act();
    }
  };
}

/** The source listing and bytecode listing of one code, with their rows indexed by line and offset. */
function buildCodeView(code: TraceCode | undefined): ICodeView {
  const lines = new Map<number, HTMLElement>();
  const rows = new Map<number, HTMLElement>();
  const source = h('div', { class: 'jp-DynamoExplorer-traceListing' });
  const bytecode = h('div', { class: 'jp-DynamoExplorer-traceListing' });
  if (!code) {
    return { source, lines, bytecode, rows };
  }
  source.appendChild(
    h('div', { class: 'jp-DynamoExplorer-traceFile', text: `${code.name} — ${code.label ?? code.filename}` })
  );
  if (code.source === null) {
    source.appendChild(emptyState('<source not available>'));
  } else {
    code.source.split('\n').forEach((text, k) => {
      const line = code.firstlineno + k;
      const el = h(
        'div',
        { class: `jp-DynamoExplorer-traceRow ${lineColourClass(line)}`, data: { line: String(line) } },
        h('span', { class: 'jp-DynamoExplorer-traceNum', text: String(line) }),
        h('span', { text: text || ' ' })
      );
      lines.set(line, el);
      source.appendChild(el);
    });
  }
  for (const ins of code.instructions) {
    const el = h(
      'div',
      { class: 'jp-DynamoExplorer-traceRow', data: { offset: String(ins.offset) } },
      h('span', { class: 'jp-DynamoExplorer-traceNum', text: String(ins.offset) }),
      h('span', { class: 'jp-DynamoExplorer-traceOp', text: ins.opname }),
      ins.argrepr ? h('span', { class: 'jp-DynamoExplorer-traceArg', text: ` ${ins.argrepr}` }) : null
    );
    rows.set(ins.offset, el);
    bytecode.appendChild(el);
  }
  return { source, lines, bytecode, rows };
}
