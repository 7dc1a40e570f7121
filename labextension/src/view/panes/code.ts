/**
 * Code pane: the frame's graphs as code (Dynamo graph, AOT forward / backward / inference / joint) and
 * inductor's output code, one tab each, syntax-highlighted when a tab is first opened.
 *
 * - Every line is a row linked to the source line it comes from (the `# File:` comments, each node's line,
 *   the nodes a kernel computes), so hovering it highlights that source line and its bytecode rows.
 * - An inductor tab opens on its kernels: a small index of the kernel calls (in the order the wrapper makes
 *   them, each with the FX nodes it computes), the imports and setup folded into one row, each kernel's
 *   source in its language under a title that links its nodes to the FX pane, the wrapper, and the benchmark
 *   harness folded (outputCode.ts). `showKernel` opens a tab on one kernel (what a node's kernel link does).
 * The rows and their line keys are codeRows.ts's.
 */
import type { IViewContext } from '../context';
import { clear, h } from '../../dom';
import type { IKernelRef } from '../../model/kernels';
import type { Frame, Graph } from '../../schema';
import { tooLongForRows } from '../highlight';
import { codeLines, FILE_COMMENT, KIND_TITLE, nodeNamed, rowKey, type IBuilt } from './codeRows';
import { outputCode, type IOutputCodeHost } from './outputCode';
import { Pane } from './pane';
import { partCut } from '../../model/partsModel';
import { partControl } from './partControl';

/** Code above this many lines is shown plain at first and highlighted in the background. */
const AWAIT_HIGHLIGHT_LINES = 2000;

/** What the pane shows for a frame without graph code or output code (or with no frame). */
const NOTHING = '<no graph code or output code for this frame>';

/** A node line of FX code: `name: "f32[4]" = ...` or `name = ...`. */
const ASSIGN = /^\s+([A-Za-z_]\w*)\s*(?::\s*"[^"]*")?\s*=(?!=)/;

/** One tab: its title and a builder of its content. */
interface ITab {
  key: string;
  title: string;
  build: () => IBuilt;
}

/**
 * The code pane.
 */
export class CodePane extends Pane {
  private readonly _tabs: HTMLElement;
  private readonly _content: HTMLElement;
  private _open: ((key: string) => Promise<HTMLElement | null>) | null = null;
  private _target: Element | null = null;
  /** What the rows and the output code of a tab draw with. */
  private readonly _host: IOutputCodeHost;

  constructor(ctx: IViewContext) {
    super(ctx, 'code');
    this._host = {
      ctx,
      link: (el, key) => this.link(el, key),
      showKernel: ref => this.showKernel(ref),
      showLine: line => this._showLine(line)
    };
    this._tabs = h('div', { class: 'jp-DynamoExplorer-tabs', attrs: { role: 'tablist' } });
    this._content = h('div', { class: 'jp-DynamoExplorer-tabContent' });
    this.body.append(this._tabs, this._content);
  }

  /**
   * Open the inductor tab of a kernel's output code on that kernel: its definition, or for an extern kernel its
   * call, scrolled to the top of the tab and marked `jp-mod-target`. False when the frame shown has no such tab.
   */
  async showKernel(ref: IKernelRef): Promise<boolean> {
    const content = this._open ? await this._open(`output-${ref.code}`) : null;
    if (!content) {
      return false;
    }
    const defined = this.ctx.index.kernels.kernelOf(ref.code, ref.kernel);
    const section = defined
      ? (Array.from(content.querySelectorAll<HTMLElement>('section.jp-DynamoExplorer-kernel')).find(
          el => el.dataset.kernel === ref.kernel
        ) ?? null)
      : null;
    const target =
      section ?? (ref.line !== null ? content.querySelector(`.jp-DynamoExplorer-row[data-line="${ref.line}"]`) : null);
    if (!target) {
      return false;
    }
    this._target?.classList.remove('jp-mod-target', 'jp-mod-flash');
    this._target = target;
    target.closest<HTMLElement>('.jp-DynamoExplorer-codeFold')?.classList.add('jp-mod-open');
    void (target as HTMLElement).offsetWidth; // restart the flash when the same kernel is shown again
    target.classList.add('jp-mod-target', 'jp-mod-flash');
    const box = this._content.getBoundingClientRect();
    const at = target.getBoundingClientRect();
    this._content.scrollTop += at.top - box.top - (section ? 0 : box.height / 3);
    return true;
  }

  /** No frame: no tabs, and the same placeholder as a frame with nothing to show. */
  protected renderNoFrame(): void {
    clear(this._tabs);
    this._open = null;
    this.showEmpty(NOTHING, this._content);
  }

  /**
   * Show the tabs of a frame and open the first.
   */
  protected async render(frame: Frame): Promise<void> {
    clear(this._tabs);
    clear(this._content);
    this._target = null;
    const tabs = this._tabsOf(frame);
    if (tabs.length === 0) {
      this._open = null;
      this.showEmpty(NOTHING, this._content);
      return;
    }
    const built = new Map<string, HTMLElement>();
    const open = async (tab: ITab): Promise<HTMLElement> => {
      for (const btn of Array.from(this._tabs.children)) {
        btn.classList.toggle('jp-mod-selected', (btn as HTMLElement).dataset.tab === tab.key);
        btn.setAttribute('aria-selected', String((btn as HTMLElement).dataset.tab === tab.key));
      }
      clear(this._content);
      this._content.scrollTop = 0;
      let el = built.get(tab.key);
      if (el) {
        this._content.appendChild(el);
        return el;
      }
      const result = tab.build();
      el = result.element;
      built.set(tab.key, el);
      this._content.appendChild(el);
      if (result.lines <= AWAIT_HIGHLIGHT_LINES) {
        await result.done;
      }
      return el;
    };
    this._open = async (key: string) => {
      const tab = tabs.find(t => t.key === key);
      return tab && this.isShown(frame) ? open(tab) : null;
    };
    for (const tab of tabs) {
      const btn = h('button', {
        class: 'jp-DynamoExplorer-tab',
        text: tab.title,
        data: { tab: tab.key },
        attrs: { role: 'tab' },
        onclick: () => void open(tab)
      });
      btn.type = 'button';
      this._tabs.appendChild(btn);
    }
    await open(tabs[0]);
  }

  private _tabsOf(frame: Frame): ITab[] {
    const { index, report } = this.ctx;
    const tabs: ITab[] = [];
    for (const graph of index.graphsOf(frame)) {
      tabs.push({
        key: `graph-${graph.id}`,
        title:
          graph.kind === 'ddp_split_child' && graph.name
            ? `${KIND_TITLE[graph.kind]} ${graph.name}`
            : `${KIND_TITLE[graph.kind] ?? graph.kind}${graph.kind === 'dynamo' ? ` ${graph.id}` : ''}`,
        build: () => this._graphCode(frame, graph)
      });
    }
    report.output_code.forEach((oc, i) => {
      if (oc.compile_id === frame.compile_id) {
        tabs.push({
          key: `output-${i}`,
          title: `Inductor ${oc.kind}`,
          build: () => outputCode(this._host, frame, oc, i)
        });
      }
    });
    return tabs;
  }

  /**
   * A graph's code, each line linked to the source line of its node or `# File:` comment; the line that loads the
   * whole first when the report holds its code in part (caps.py: past 1 MB).
   */
  private _graphCode(frame: Frame, graph: Graph): IBuilt {
    const built = this._graphLines(frame, graph);
    const cut = partCut(this.ctx.report, frame, 'graph_code', graph.id);
    if (!cut) {
      return built;
    }
    const reopen = (): void => void this.update(frame).then(() => this._open?.(`graph-${graph.id}`));
    const line = partControl(this.ctx, frame, cut, { unit: 'characters of its code', logs: 'graph_code' }, reopen);
    return { ...built, element: h('div', {}, line, built.element) };
  }

  private _graphLines(frame: Frame, graph: Graph): IBuilt {
    const raw = graph.code.split('\n');
    if (tooLongForRows(graph.code, raw.length)) {
      return codeLines(this._host, this.ctx.index.labelPaths(graph.code), 'python', 1, []); // one plain block: no rows to link
    }
    const keys = raw.map(text => {
      const file = FILE_COMMENT.exec(text);
      if (file) {
        return rowKey(this.ctx, frame, file[1], Number(file[2]));
      }
      const assign = ASSIGN.exec(text);
      const node = assign ? nodeNamed(graph, assign[1]) : undefined;
      return node ? rowKey(this.ctx, frame, node.filename, node.line) : null;
    });
    return codeLines(this._host, this.ctx.index.labelPaths(graph.code), 'python', 1, keys);
  }

  /** Scroll the tab shown to a line of its code and flash it. */
  private _showLine(line: number): void {
    const row = this._content.querySelector(`.jp-DynamoExplorer-row[data-line="${line}"]`);
    if (!row) {
      return;
    }
    row.classList.remove('jp-mod-flash');
    void (row as HTMLElement).offsetWidth; // restart the animation
    row.classList.add('jp-mod-flash');
    const box = this._content.getBoundingClientRect();
    this._content.scrollTop += row.getBoundingClientRect().top - box.top - box.height / 3;
  }
}
