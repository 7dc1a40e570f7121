/**
 * Code pane: the frame's graphs as code (Dynamo graph, AOT forward / backward / inference / joint) and
 * inductor's output code, one tab each, syntax-highlighted when a tab is first opened.
 *
 * - Every line is a row linked to the source line it comes from (the `# File:` comments, each node's line,
 *   the nodes a kernel computes), so hovering it highlights that source line and its bytecode rows.
 * - An inductor tab opens on its kernels: a small index of the kernel calls (in the order the wrapper makes
 *   them, each with the FX nodes it computes), the imports and setup folded into one row, each kernel's
 *   source in its language under a title that links its nodes to the FX pane, the wrapper, and the benchmark
 *   harness folded. `showKernel` opens a tab on one kernel (what a node's kernel link does).
 */
import type { IViewContext } from '../context';
import { button, clear, h } from '../dom';
import { appendLine, codeBlock, highlightLines, PREVIEW_LINES, type Language, type Line } from '../highlight';
import { segments, type IKernelRef, type ISegment } from '../kernels';
import { lineColourClass } from '../linking';
import type { Frame, Graph, GraphKind, Node as FxNode, OutputCode } from '../schema';
import { Pane } from './pane';

/** Code above this many lines is shown plain at first and highlighted in the background. */
const AWAIT_HIGHLIGHT_LINES = 2000;

/** Output code up to this many lines is drawn as linked rows under its kernel index (a big model's wrapper runs
 * to thousands of lines); longer output code, like graph code past PREVIEW_LINES, is one plain block. */
const OUTPUT_CODE_ROWS = 20_000;

/** Nodes of a graph by name, built once per graph. */
const NODES_BY_NAME = new WeakMap<Graph, Map<string, FxNode>>();

/** A node of a graph by name. */
function nodeNamed(graph: Graph, name: string): FxNode | undefined {
  let byName = NODES_BY_NAME.get(graph);
  if (!byName) {
    byName = new Map(graph.nodes.map(n => [n.name, n]));
    NODES_BY_NAME.set(graph, byName);
  }
  return byName.get(name);
}

/** Tab titles of graph kinds. */
const KIND_TITLE: Record<GraphKind, string> = {
  dynamo: 'Dynamo graph',
  dynamo_partial: 'Partial Dynamo graph (traced before the error)',
  ddp_split_graph: 'DDP split graph',
  ddp_split_child: 'DDP piece',
  aot_joint: 'AOT joint',
  aot_forward: 'AOT forward',
  aot_backward: 'AOT backward',
  aot_inference: 'AOT inference'
};

/** Names of kernel languages, for people. */
const LANGUAGE_TITLE: Record<string, string> = { cpp: 'C++', triton: 'Triton', python: 'Python' };

/** Labels of the folded parts of an output code. */
const FOLD_TITLE: Record<string, string> = { setup: 'imports and setup', harness: 'benchmark harness' };

/** What the pane shows for a frame without graph code or output code (or with no frame). */
const NOTHING = '<no graph code or output code for this frame>';

/** A node line of FX code: `name: "f32[4]" = ...` or `name = ...`. */
const ASSIGN = /^\s+([A-Za-z_]\w*)\s*(?::\s*"[^"]*")?\s*=(?!=)/;
/** FX's summary of a node's stack trace, and the same comment in inductor's code. */
const FILE_COMMENT = /# File: (.+?):(\d+) in /;

/** What a tab's builder gives. */
interface IBuilt {
  element: HTMLElement;
  done: Promise<void>;
  lines: number;
}

/** One tab: its title and a builder of its content. */
interface ITab {
  key: string;
  title: string;
  build: () => IBuilt;
}

/** The line key and colour of each row of a code text (index: 0-based line). */
type RowKey = { key: string; line: number } | null;

/**
 * The code pane.
 */
export class CodePane extends Pane {
  private readonly _tabs: HTMLElement;
  private readonly _content: HTMLElement;
  private _open: ((key: string) => Promise<HTMLElement | null>) | null = null;
  private _target: Element | null = null;

  constructor(ctx: IViewContext) {
    super(ctx, 'code');
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
        tabs.push({ key: `output-${i}`, title: `Inductor ${oc.kind}`, build: () => this._outputCode(frame, oc, i) });
      }
    });
    return tabs;
  }

  /** A graph's code, each line linked to the source line of its node or `# File:` comment. */
  private _graphCode(frame: Frame, graph: Graph): IBuilt {
    const raw = graph.code.split('\n');
    if (raw.length > PREVIEW_LINES) {
      return this._lines(this.ctx.index.labelPaths(graph.code), 'python', 1, []); // one plain block: no rows to link
    }
    const keys = raw.map(text => {
      const file = FILE_COMMENT.exec(text);
      if (file) {
        return this._key(frame, file[1], Number(file[2]));
      }
      const assign = ASSIGN.exec(text);
      const node = assign ? nodeNamed(graph, assign[1]) : undefined;
      return node ? this._key(frame, node.filename, node.line) : null;
    });
    return this._lines(this.ctx.index.labelPaths(graph.code), 'python', 1, keys);
  }

  /**
   * Inductor's output code: the kernel index, the setup folded, each kernel under a title, the wrapper, and the
   * benchmark harness folded.
   */
  private _outputCode(frame: Frame, oc: OutputCode, codeIndex: number): IBuilt {
    const text = this.ctx.index.labelPaths(oc.source);
    const lines = text.split('\n');
    if (lines.length > OUTPUT_CODE_ROWS) {
      return this._lines(text, 'python', 1, []);
    }
    const kernels = this.ctx.index.kernels;
    const { dynamo, aot } = kernels.graphsOf(codeIndex);
    const entries = kernels.entriesOf(codeIndex);
    const keyOfNodes = (nodes: string[], aotNodes: string[]): RowKey =>
      this._nodesKey(frame, dynamo, nodes) ?? this._nodesKey(frame, aot, aotNodes);
    const keys: RowKey[] = oc.source.split('\n').map(raw => {
      const file = FILE_COMMENT.exec(raw);
      return file ? this._key(frame, file[1], Number(file[2])) : null;
    });
    const calls = new Map<number, IKernelRef>();
    for (const ref of entries) {
      if (ref.line !== null) {
        calls.set(ref.line, ref);
        keys[ref.line - 1] = keyOfNodes(ref.nodes, ref.aotNodes) ?? keys[ref.line - 1];
      }
    }
    const parts = segments(oc.source);
    for (const seg of parts) {
      if (seg.kind === 'kernel' && seg.kernel) {
        const k = kernels.kernelOf(codeIndex, seg.kernel);
        const key = k ? keyOfNodes(k.nodes ?? [], k.aot_nodes ?? []) : null;
        for (let l = seg.first; l <= seg.last; l++) {
          keys[l - 1] = keys[l - 1] ?? key;
        }
      }
    }
    const rows = lines.map((line, i) => this._row(i + 1, [[line, '']], keys[i]));
    for (const [line, ref] of calls) {
      const row = rows[line - 1];
      if (row) {
        row.dataset.call = ref.kernel;
        row.classList.add('jp-DynamoExplorer-kernelCall');
        row
          .querySelector('.jp-DynamoExplorer-lineCode')
          ?.after(this._nodeLinks(frame, codeIndex, ref.nodes, ref.aotNodes));
      }
    }
    const element = h('div', { class: 'jp-DynamoExplorer-outputCode', data: { codeIndex: String(codeIndex) } });
    element.appendChild(this._kernelIndex(frame, codeIndex, entries));
    for (const seg of parts) {
      element.appendChild(this._segment(frame, codeIndex, seg, rows));
    }
    const done = this._highlight(oc, lines.length, rows, parts);
    return { element, done, lines: lines.length };
  }

  /** The index of an output code's kernels: one row per call (or uncalled kernel), with its nodes. */
  private _kernelIndex(frame: Frame, codeIndex: number, entries: IKernelRef[]): HTMLElement {
    const list = h('ol', { class: 'jp-DynamoExplorer-kernelIndexList' });
    for (const ref of entries) {
      const defined = this.ctx.index.kernels.kernelOf(ref.code, ref.kernel);
      list.appendChild(
        h(
          'li',
          { data: { kernel: ref.kernel } },
          button(ref.kernel, () => void this.showKernel(ref), {
            class: 'jp-DynamoExplorer-link jp-DynamoExplorer-kernelName',
            title: defined ? `show the ${ref.kernel} kernel` : `show the call of ${ref.kernel}`
          }),
          h('span', {
            class: 'jp-DynamoExplorer-muted',
            text: defined ? (LANGUAGE_TITLE[defined.language] ?? defined.language) : 'extern'
          }),
          this._nodeLinks(frame, codeIndex, ref.nodes, ref.aotNodes)
        )
      );
    }
    const count = entries.length;
    return h(
      'nav',
      { class: 'jp-DynamoExplorer-kernelIndex', attrs: { 'aria-label': 'kernels' } },
      h('div', {
        class: 'jp-DynamoExplorer-kernelIndexTitle',
        text: !count
          ? 'No kernels'
          : entries.some(r => r.line !== null)
            ? `Kernels, in call order (${count})`
            : `Kernels (${count})`
      }),
      count ? list : null
    );
  }

  /** One part of an output code: setup and harness folded, a kernel under its title, the wrapper as is. */
  private _segment(frame: Frame, codeIndex: number, seg: ISegment, rows: HTMLElement[]): HTMLElement {
    const table = h('div', { class: 'jp-DynamoExplorer-lines' }, ...rows.slice(seg.first - 1, seg.last));
    if (seg.kind === 'setup' || seg.kind === 'harness') {
      const n = seg.last - seg.first + 1;
      const fold = h('div', { class: 'jp-DynamoExplorer-codeFold', data: { fold: seg.kind } });
      const toggle = button(`${FOLD_TITLE[seg.kind]} · ${n} line${n === 1 ? '' : 's'}`, () => {
        const open = fold.classList.toggle('jp-mod-open');
        toggle.setAttribute('aria-expanded', String(open));
      });
      toggle.className = 'jp-DynamoExplorer-codeFoldToggle';
      toggle.setAttribute('aria-expanded', 'false');
      fold.append(toggle, h('div', { class: 'jp-DynamoExplorer-codeFoldBody' }, table));
      return fold;
    }
    if (seg.kind !== 'kernel' || !seg.kernel) {
      return table;
    }
    const kernel = this.ctx.index.kernels.kernelOf(codeIndex, seg.kernel);
    const calls = this.ctx.index.kernels.entriesOf(codeIndex).filter(r => r.kernel === seg.kernel && r.line !== null);
    const title = h(
      'div',
      { class: 'jp-DynamoExplorer-kernelTitle' },
      h('span', { class: 'jp-DynamoExplorer-kernelName', text: seg.kernel }),
      h('span', {
        class: 'jp-DynamoExplorer-muted',
        text: kernel ? (LANGUAGE_TITLE[kernel.language] ?? kernel.language) : ''
      }),
      kernel ? this._nodeLinks(frame, codeIndex, kernel.nodes ?? [], kernel.aot_nodes ?? []) : null,
      ...calls.map(ref =>
        button(`called at line ${ref.line}`, () => this._showLine(ref.line!), {
          class: 'jp-DynamoExplorer-link',
          data: { callLine: String(ref.line) }
        })
      )
    );
    return h('section', { class: 'jp-DynamoExplorer-kernel', data: { kernel: seg.kernel } }, title, table);
  }

  /**
   * Links to the nodes a kernel computes: Dynamo graph nodes (else post-grad nodes, named as in the AOT graph),
   * each selecting its node in the FX pane and linked to its source line.
   */
  private _nodeLinks(frame: Frame, codeIndex: number, nodes: string[], aotNodes: string[]): HTMLElement {
    const { dynamo, aot } = this.ctx.index.kernels.graphsOf(codeIndex);
    const [graph, names] = nodes.length > 0 || !aot ? [dynamo, nodes] : [aot, aotNodes];
    const out = h('span', { class: 'jp-DynamoExplorer-kernelNodes' });
    if (names.length === 0) {
      return out;
    }
    out.append(
      h('span', {
        class: 'jp-DynamoExplorer-muted',
        text: graph === aot && aot !== dynamo ? 'computes (AOT)' : 'computes'
      })
    );
    for (const name of names) {
      const node = graph ? nodeNamed(graph, name) : undefined;
      if (!graph || !node) {
        out.append(h('code', { text: name }));
        continue;
      }
      const link = button(name, () => void this.ctx.showNode(graph.id, name), {
        class: 'jp-DynamoExplorer-link jp-DynamoExplorer-nodeLink',
        title: `select ${name} in the ${KIND_TITLE[graph.kind] ?? graph.kind} picture`,
        data: { node: name, graph: String(graph.id) }
      });
      this.link(link, this._nodeKey(frame, node)?.key ?? null);
      out.append(link);
    }
    return out;
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

  /** Highlight an output code: the wrapper as Python, each kernel's body in its language. */
  private async _highlight(oc: OutputCode, count: number, rows: HTMLElement[], parts: ISegment[]): Promise<void> {
    const fill = (first: number, lines: Line[]): void => {
      lines.forEach((line, i) => {
        const code = rows[first - 1 + i]?.querySelector('.jp-DynamoExplorer-lineCode');
        if (code) {
          clear(code);
          appendLine(code as HTMLElement, line);
        }
      });
    };
    const source = oc.source.split('\n');
    const bodies = parts.flatMap(seg => {
      const kernel = seg.kernel ? oc.kernels.find(k => k.name === seg.kernel) : undefined;
      const body = seg.body;
      return seg.kind === 'kernel' && body && body.last >= body.first && kernel?.language === 'cpp'
        ? [{ first: body.first, text: source.slice(body.first - 1, body.last).join('\n') }]
        : [];
    });
    try {
      // The whole text as Python (a Triton kernel's body is Python), then each C++ body over it.
      const [python, ...cpp] = await Promise.all([
        highlightLines(this.ctx.index.labelPaths(oc.source), 'python'),
        ...bodies.map(b => highlightLines(b.text, 'cpp'))
      ]);
      fill(1, python.slice(0, count));
      cpp.forEach((lines, i) => fill(bodies[i].first, lines));
    } catch {
      // Keep the plain text: highlighting is a convenience.
    }
  }

  /** Code drawn as linked rows (plain first, then highlighted), or as one block past PREVIEW_LINES. */
  private _lines(code: string, language: Language, first: number, keys: RowKey[]): IBuilt {
    const texts = code.split('\n');
    if (texts.length > PREVIEW_LINES) {
      const b = codeBlock(code, language);
      return { ...b, lines: texts.length };
    }
    const rows = texts.map((text, i) => this._row(first + i, [[text, '']], keys[i] ?? null));
    const element = h('div', { class: 'jp-DynamoExplorer-lines jp-DynamoExplorer-codeLines' }, ...rows);
    const done = highlightLines(code, language)
      .then(lines =>
        lines.forEach((line, i) => {
          const cell = rows[i]?.querySelector('.jp-DynamoExplorer-lineCode');
          if (cell) {
            clear(cell);
            appendLine(cell as HTMLElement, line);
          }
        })
      )
      .catch(() => undefined);
    return { element, done, lines: texts.length };
  }

  /** One code row: its line number and text, linked and coloured by the source line it comes from. */
  private _row(lineno: number, line: Line, key: RowKey): HTMLElement {
    const code = h('span', { class: 'jp-DynamoExplorer-lineCode' });
    appendLine(code, line);
    const row = h(
      'div',
      { class: 'jp-DynamoExplorer-row', data: { line: String(lineno) } },
      h('span', { class: 'jp-DynamoExplorer-lineno', text: String(lineno) }),
      code
    );
    if (key) {
      row.classList.add(lineColourClass(key.line));
      this.link(row, key.key);
    }
    return row;
  }

  /** The key of a source line, the frame's own file counting as the cell when the frame is the cell's. */
  private _key(frame: Frame, filename: string | null, line: number | null): RowKey {
    if (line === null || !isFinite(line)) {
      return null;
    }
    const key = this.ctx.index.lineKey(filename, line, frame.code.in_cell && filename === frame.code.filename);
    return key ? { key, line } : null;
  }

  private _nodeKey(frame: Frame, node: FxNode): RowKey {
    return this._key(frame, node.filename, node.line);
  }

  /** The key of the first of `names` (nodes of `graph`) that has a source line. */
  private _nodesKey(frame: Frame, graph: Graph | null, names: string[]): RowKey {
    if (!graph) {
      return null;
    }
    for (const name of names) {
      const node = nodeNamed(graph, name);
      const key = node ? this._nodeKey(frame, node) : null;
      if (key) {
        return key;
      }
    }
    return null;
  }
}
