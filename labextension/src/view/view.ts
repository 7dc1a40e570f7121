/**
 * The report view: lays out the panes, holds the frame shown now, and implements navigation between
 * panes (frame selection, graph links, jumps to source lines). `data-status` on the root reads
 * 'loading' while panes draw and 'ready' once everything shown is drawn, SVG included.
 */
import type { IReportView } from './context';
import { formatSeconds, h } from '../dom';
import { FRAME_EXTRAS } from './frameExtras';
import { PaneLayout } from './layout';
import { LineLinker } from './linking';
import type { IKernelRef } from '../model/kernels';
import { ReportIndex } from '../model/model';
import { CodePane } from './panes/code';
import { FxGraphPane } from './panes/fxGraph';
import type { Pane } from './panes/pane';
import { PANE_REGISTRY, ROW_CLASSES, type PaneRow } from './panes/registry';
import { SourcePane } from './panes/source';
import type { CompileReport, Frame, PaneName } from '../schema';

/**
 * Show why a payload is not drawn (an unknown major, a malformed or undecodable output) in place of the view.
 */
export function showProblem(root: HTMLElement, problem: { kind: string; message: string }): void {
  root.appendChild(
    h('div', {
      class: `jp-DynamoExplorer-unsupported jp-mod-${problem.kind}`,
      text: problem.message,
      data: { problem: problem.kind }
    })
  );
  root.dataset.status = 'ready';
}

/**
 * One rendered report.
 */
export class ReportView implements IReportView {
  readonly index: ReportIndex;
  readonly linker: LineLinker;
  /** Splitters, height handles and the maximised pane. */
  readonly layout: PaneLayout;
  private _frame: Frame | null = null;
  private readonly _panes = new Map<PaneName, Pane>();
  private readonly _frameTitle: HTMLElement;
  private _pending = 0;

  constructor(
    private readonly _root: HTMLElement,
    readonly report: CompileReport
  ) {
    this.index = new ReportIndex(report);
    this.linker = new LineLinker(_root);
    this._frameTitle = h('div', { class: 'jp-DynamoExplorer-frameTitle' });
    const top: HTMLElement[] = [];
    const nav = h('nav', { class: 'jp-DynamoExplorer-nav' });
    const main = h('div', { class: 'jp-DynamoExplorer-main' }, this._frameTitle);
    let row = null as { name: PaneRow; element: HTMLElement } | null;
    const rows: HTMLElement[] = [];
    for (const entry of PANE_REGISTRY) {
      const pane = entry.create(this);
      this._panes.set(entry.name, pane);
      if (entry.slot === 'top') {
        top.push(pane.element);
      } else if (entry.slot === 'nav') {
        nav.appendChild(pane.element);
      } else if (entry.row) {
        if (row?.name !== entry.row) {
          row = { name: entry.row, element: h('div', { class: ROW_CLASSES[entry.row], data: { row: entry.row } }) };
          main.appendChild(row.element);
          rows.push(row.element);
        }
        row.element.appendChild(pane.element);
      } else {
        row = null;
        main.appendChild(pane.element);
      }
    }
    _root.append(...top, h('div', { class: 'jp-DynamoExplorer-body' }, nav, main));
    this.layout = new PaneLayout(_root, rows, Array.from(this._panes.values()));
  }

  /** The frame shown now. */
  get frame(): Frame | null {
    return this._frame;
  }

  /** The panes, by name, in the schema's order. */
  get panes(): ReadonlyMap<PaneName, Pane> {
    return this._panes;
  }

  /** The FX pane (tests and the benchmark read its model). */
  get fxPane(): FxGraphPane {
    return this._pane('fx-graph', FxGraphPane);
  }

  /**
   * Draw the first frame; resolves when everything shown is drawn.
   */
  async start(): Promise<void> {
    const first = this.initialFrame();
    if (first) {
      await this.selectFrame(first.compile_id);
    } else {
      await this._busy(this._updateAll(null));
    }
  }

  /**
   * The frame shown first: the first that compiled a graph or broke one, else the first.
   */
  initialFrame(): Frame | null {
    const frames = this.report.frames;
    return (
      frames.find(f => f.graph_breaks.length > 0 || this.index.graphsOf(f).some(g => g.kind === 'dynamo')) ??
      frames[0] ??
      null
    );
  }

  async selectFrame(compileId: string): Promise<void> {
    const frame = this.index.frames.get(compileId) ?? null;
    if (!frame) {
      return;
    }
    if (frame === this._frame) {
      return;
    }
    await this._busy(this._updateAll(frame));
  }

  async showGraph(graphId: number): Promise<void> {
    await this._inFxPane(graphId, fx => fx.showGraph(graphId));
  }

  async showNode(graphId: number, nodeName: string): Promise<void> {
    await this._inFxPane(graphId, fx => fx.showNode(graphId, nodeName).then(() => undefined));
  }

  /** Select a graph's frame (if it has one), show the FX pane (restored if another pane is maximised), draw, scroll to it. */
  private async _inFxPane(graphId: number, draw: (fx: FxGraphPane) => Promise<void>): Promise<void> {
    const graph = this.index.graphs.get(graphId);
    if (!graph) {
      return;
    }
    // an exported program's graph has no frame: it is drawn whichever frame is shown
    if (graph.compile_id !== null && (!this._frame || this._frame.compile_id !== graph.compile_id)) {
      await this.selectFrame(graph.compile_id);
    }
    const fx = this.fxPane;
    this.layout.reveal(fx.name);
    await this._busy(draw(fx));
    if (typeof fx.element.scrollIntoView === 'function') {
      fx.element.scrollIntoView({ block: 'nearest' });
    }
  }

  async showKernel(ref: IKernelRef): Promise<void> {
    const code = this.index.kernels.codes[ref.code];
    if (!code) {
      return;
    }
    if (!this._frame || this._frame.compile_id !== code.compile_id) {
      await this.selectFrame(code.compile_id);
    }
    const pane = this._pane('code', CodePane);
    this.layout.reveal(pane.name);
    await this._busy(pane.showKernel(ref).then(() => undefined));
    if (typeof pane.element.scrollIntoView === 'function') {
      pane.element.scrollIntoView({ block: 'nearest' });
    }
  }

  async jumpToLine(frame: Frame | null, line: number): Promise<void> {
    if (frame && frame !== this._frame) {
      await this.selectFrame(frame.compile_id);
    }
    this.layout.reveal('source');
    this._pane('source', SourcePane).flashLine(line);
    const key = this._frame ? this.index.frameLineKey(this._frame, line) : `cell:${line}`;
    this.linker.activate(key);
  }

  /**
   * Stop listening to the page.
   */
  dispose(): void {
    for (const pane of this._panes.values()) {
      pane.dispose();
    }
    this.layout.dispose();
    this.linker.dispose();
  }

  /** A pane by name, checked to be of the class the caller needs. */
  private _pane<T extends Pane>(name: PaneName, cls: abstract new (...args: never[]) => T): T {
    const pane = this._panes.get(name);
    if (!(pane instanceof cls)) {
      throw new Error(`the ${name} pane is not a ${cls.name}`);
    }
    return pane;
  }

  /** Show a frame in every pane (each pane's `update`), in the registry's order. */
  private async _updateAll(frame: Frame | null): Promise<void> {
    this._frame = frame;
    this._renderFrameTitle(frame);
    await Promise.all(Array.from(this._panes.values(), pane => pane.update(frame)));
  }

  private _renderFrameTitle(frame: Frame | null): void {
    const el = this._frameTitle;
    while (el.firstChild) {
      el.removeChild(el.firstChild);
    }
    if (!frame) {
      return;
    }
    el.dataset.compileId = frame.compile_id;
    // the top-level phases (all of them in a report before minor 6); the compile-time pane charts the rest
    const phases = frame.phases
      .filter(p => p.parent === undefined || p.parent === null)
      .map(p => `${p.name} ${Math.round(p.ms)} ms`)
      .join(', ');
    el.append(
      h(
        'span',
        { class: `jp-DynamoExplorer-chip jp-DynamoExplorer-status-${frame.status}` },
        h('span', { class: 'jp-DynamoExplorer-statusDot' }),
        `[${frame.compile_id}]`
      ),
      h('strong', { text: ` ${frame.code.name} ` }),
      h('span', {
        class: 'jp-DynamoExplorer-muted',
        text: `${frame.status.replace('_', ' ')} · ${frame.code.in_cell ? `cell line ${frame.code.firstlineno}` : this.index.place(frame.code.filename, frame.code.firstlineno)} · compile ${formatSeconds(frame.compile_time_s)}`,
        title: phases
      })
    );
    for (const extra of FRAME_EXTRAS) {
      const row = extra.build(this, frame);
      if (row) {
        row.dataset.section = extra.id;
        el.append(row);
      }
    }
    if (frame.fail_reason) {
      el.append(
        h(
          'div',
          { class: 'jp-DynamoExplorer-banner jp-mod-error' },
          h('strong', { text: `${frame.fail_type ?? 'failure'}: ` }),
          h('span', { class: 'jp-DynamoExplorer-message', text: frame.fail_reason })
        )
      );
    }
  }

  /** Mark the root busy until `work` settles. */
  private async _busy(work: Promise<void>): Promise<void> {
    this._pending += 1;
    this._root.dataset.status = 'loading';
    try {
      await work;
    } finally {
      this._pending -= 1;
      if (this._pending === 0) {
        this._root.dataset.status = 'ready';
      }
    }
  }
}
