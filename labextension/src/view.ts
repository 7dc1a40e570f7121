/**
 * The report view: lays out the panes, holds the frame shown now, and implements navigation between
 * panes (frame selection, graph links, jumps to source lines). `data-status` on the root reads
 * 'loading' while panes draw and 'ready' once everything shown is drawn, SVG included.
 */
import type { IViewContext } from './context';
import { formatSeconds, h } from './dom';
import { LineLinker } from './linking';
import { ReportIndex } from './model';
import { BytecodePane } from './panes/bytecode';
import { CodePane } from './panes/code';
import { FramesPane } from './panes/frames';
import { FxGraphPane } from './panes/fxGraph';
import { GraphBreaksPane } from './panes/graphBreaks';
import { GuardsPane } from './panes/guards';
import { renderHeader } from './panes/header';
import { SourcePane } from './panes/source';
import type { CompileReport, Frame } from './schema';

/**
 * One rendered report.
 */
export class ReportView implements IViewContext {
  readonly index: ReportIndex;
  readonly linker: LineLinker;
  private _frame: Frame | null = null;
  private readonly _frames: FramesPane;
  private readonly _source: SourcePane;
  private readonly _original: BytecodePane;
  private readonly _modified: BytecodePane;
  private readonly _guards: GuardsPane;
  private readonly _breaks: GraphBreaksPane;
  private readonly _fx: FxGraphPane;
  private readonly _code: CodePane;
  private readonly _frameTitle: HTMLElement;
  private _pending = 0;

  constructor(
    private readonly _root: HTMLElement,
    readonly report: CompileReport
  ) {
    this.index = new ReportIndex(report);
    this.linker = new LineLinker(_root);
    this._frames = new FramesPane(this);
    this._source = new SourcePane(this);
    this._original = new BytecodePane(this, 'original');
    this._modified = new BytecodePane(this, 'modified');
    this._guards = new GuardsPane(this);
    this._breaks = new GraphBreaksPane(this);
    this._fx = new FxGraphPane(this);
    this._code = new CodePane(this);
    this._frameTitle = h('div', { class: 'jp-DynamoExplorer-frameTitle' });
    _root.append(
      renderHeader(this),
      h(
        'div',
        { class: 'jp-DynamoExplorer-body' },
        h('nav', { class: 'jp-DynamoExplorer-nav' }, this._frames.element),
        h(
          'div',
          { class: 'jp-DynamoExplorer-main' },
          this._frameTitle,
          h(
            'div',
            { class: 'jp-DynamoExplorer-columns' },
            this._source.element,
            this._original.element,
            this._modified.element
          ),
          h(
            'div',
            { class: 'jp-DynamoExplorer-columns jp-DynamoExplorer-columns2' },
            this._guards.element,
            this._breaks.element
          ),
          this._fx.element,
          this._code.element
        )
      )
    );
  }

  /** The frame shown now. */
  get frame(): Frame | null {
    return this._frame;
  }

  /** The FX pane (tests and the benchmark read its model). */
  get fxPane(): FxGraphPane {
    return this._fx;
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
    const graph = this.index.graphs.get(graphId);
    if (!graph) {
      return;
    }
    if (!this._frame || this._frame.compile_id !== graph.compile_id) {
      await this.selectFrame(graph.compile_id);
    }
    await this._busy(this._fx.showGraph(graphId));
    if (typeof this._fx.element.scrollIntoView === 'function') {
      this._fx.element.scrollIntoView({ block: 'nearest' });
    }
  }

  async jumpToLine(frame: Frame | null, line: number): Promise<void> {
    if (frame && frame !== this._frame) {
      await this.selectFrame(frame.compile_id);
    }
    this._source.flashLine(line);
    const key = this._frame ? this.index.frameLineKey(this._frame, line) : `cell:${line}`;
    this.linker.activate(key);
  }

  /**
   * Stop listening to the page.
   */
  dispose(): void {
    this.linker.dispose();
  }

  private async _updateAll(frame: Frame | null): Promise<void> {
    this._frame = frame;
    this._frames.setSelected(frame ? frame.compile_id : null);
    this._renderFrameTitle(frame);
    this._guards.update(frame);
    this._breaks.update(frame);
    await Promise.all([
      this._source.update(frame),
      this._original.update(frame),
      this._modified.update(frame),
      this._fx.update(frame),
      this._code.update(frame)
    ]);
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
    const phases = frame.phases.map(p => `${p.name} ${Math.round(p.ms)} ms`).join(', ');
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
