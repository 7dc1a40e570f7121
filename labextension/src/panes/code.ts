/**
 * Code pane: the frame's graphs as code (Dynamo graph, AOT forward / backward / inference / joint) and
 * inductor's output code with its kernels, one tab each, syntax-highlighted when a tab is first opened.
 */
import type { IViewContext } from '../context';
import { clear, h } from '../dom';
import { codeBlock, type Language } from '../highlight';
import type { Frame } from '../schema';
import { Pane } from './pane';

/** Code above this many lines is shown plain at first and highlighted in the background. */
const AWAIT_HIGHLIGHT_LINES = 2000;

/** Tab titles of graph kinds. */
const KIND_TITLE: Record<string, string> = {
  dynamo: 'Dynamo graph',
  dynamo_partial: 'Partial Dynamo graph (traced before the error)',
  aot_joint: 'AOT joint',
  aot_forward: 'AOT forward',
  aot_backward: 'AOT backward',
  aot_inference: 'AOT inference'
};

/** What the pane shows for a frame without graph code or output code (or with no frame). */
const NOTHING = '<no graph code or output code for this frame>';

/** One tab: its title and a builder of its content. */
interface ITab {
  key: string;
  title: string;
  build: () => { element: HTMLElement; done: Promise<void>; lines: number };
}

/**
 * The code pane.
 */
export class CodePane extends Pane {
  private readonly _tabs: HTMLElement;
  private readonly _content: HTMLElement;

  constructor(ctx: IViewContext) {
    super(ctx, 'code');
    this._tabs = h('div', { class: 'jp-DynamoExplorer-tabs', attrs: { role: 'tablist' } });
    this._content = h('div', { class: 'jp-DynamoExplorer-tabContent' });
    this.body.append(this._tabs, this._content);
  }

  /** No frame: no tabs, and the same placeholder as a frame with nothing to show. */
  protected renderNoFrame(): void {
    clear(this._tabs);
    this.showEmpty(NOTHING, this._content);
  }

  /**
   * Show the tabs of a frame and open the first.
   */
  protected async render(frame: Frame): Promise<void> {
    clear(this._tabs);
    clear(this._content);
    const tabs = this._tabsOf(frame);
    if (tabs.length === 0) {
      this.showEmpty(NOTHING, this._content);
      return;
    }
    const built = new Map<string, HTMLElement>();
    const open = async (tab: ITab): Promise<void> => {
      for (const btn of Array.from(this._tabs.children)) {
        btn.classList.toggle('jp-mod-selected', (btn as HTMLElement).dataset.tab === tab.key);
        btn.setAttribute('aria-selected', String((btn as HTMLElement).dataset.tab === tab.key));
      }
      clear(this._content);
      let el = built.get(tab.key);
      if (el) {
        this._content.appendChild(el);
        return;
      }
      const result = tab.build();
      el = result.element;
      built.set(tab.key, el);
      this._content.appendChild(el);
      if (result.lines <= AWAIT_HIGHLIGHT_LINES) {
        await result.done;
      }
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
    const block = (code: string, language: Language): { element: HTMLElement; done: Promise<void>; lines: number } => {
      const b = codeBlock(code, language);
      return { ...b, lines: code.split('\n').length };
    };
    for (const graph of index.graphsOf(frame)) {
      tabs.push({
        key: `graph-${graph.id}`,
        title: `${KIND_TITLE[graph.kind] ?? graph.kind}${graph.kind === 'dynamo' ? ` ${graph.id}` : ''}`,
        build: () => block(index.labelPaths(graph.code), 'python')
      });
    }
    report.output_code
      .filter(oc => oc.compile_id === frame.compile_id)
      .forEach((oc, i) => {
        tabs.push({
          key: `output-${i}`,
          title: `Inductor ${oc.kind}`,
          build: () => {
            const main = block(index.labelPaths(oc.source), 'python');
            const element = h('div', {}, main.element);
            const done: Promise<void>[] = [main.done];
            for (const kernel of oc.kernels) {
              const k = block(kernel.source, kernel.language === 'cpp' ? 'cpp' : 'python');
              element.append(
                h('div', { class: 'jp-DynamoExplorer-kernelTitle', text: `${kernel.name} (${kernel.language})` }),
                k.element
              );
              done.push(k.done);
            }
            return { element, done: Promise.all(done).then(() => undefined), lines: main.lines };
          }
        });
      });
    return tabs;
  }
}
