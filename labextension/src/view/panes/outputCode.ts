/**
 * Inductor's output code in the code pane: the kernel index (the kernel calls in the order the wrapper makes
 * them, each with the FX nodes it computes), the imports and setup folded into one row, each kernel's source in
 * its language under a title that links its nodes to the FX pane, the wrapper, and the benchmark harness folded.
 * Every row is linked to the source line of the nodes it computes (the `# File:` comments, the nodes a kernel
 * computes); the text is highlighted after (the wrapper as Python, each C++ kernel's body as C++).
 */
import type { IViewContext } from '../context';
import { button, clear, h } from '../../dom';
import { segments, type IKernelRef, type ISegment } from '../../model/kernels';
import type { Frame, OutputCode } from '../../schema';
import { appendLine, highlightLines, type Line } from '../highlight';
import {
  codeLines,
  codeRow,
  FILE_COMMENT,
  KIND_TITLE,
  nodeNamed,
  nodesKey,
  rowKey,
  type IBuilt,
  type RowKey
} from './codeRows';
import type { IPaneParts } from './pane';

/** What output code asks of the code pane: its rows' links, and showing a kernel or a line of the tab. */
export interface IOutputCodeHost extends IPaneParts {
  /** Open the tab on a kernel (its definition, or an extern kernel's call). */
  showKernel(ref: IKernelRef): Promise<unknown>;
  /** Scroll the tab shown to a line of its code and flash it. */
  showLine(line: number): void;
}

/** Output code up to this many lines is drawn as linked rows under its kernel index (a big model's wrapper runs
 * to thousands of lines); longer output code, like graph code past PREVIEW_LINES, is one plain block. */
const OUTPUT_CODE_ROWS = 20_000;

/** Names of kernel languages, for people. */
const LANGUAGE_TITLE: Record<string, string> = { cpp: 'C++', triton: 'Triton', python: 'Python' };

/** Labels of the folded parts of an output code. */
const FOLD_TITLE: Record<string, string> = { setup: 'imports and setup', harness: 'benchmark harness' };

/**
 * Inductor's output code: the kernel index, the setup folded, each kernel under a title, the wrapper, and the
 * benchmark harness folded.
 */
export function outputCode(host: IOutputCodeHost, frame: Frame, oc: OutputCode, codeIndex: number): IBuilt {
  const text = host.ctx.index.labelPaths(oc.source);
  const lines = text.split('\n');
  if (lines.length > OUTPUT_CODE_ROWS) {
    return codeLines(host, text, 'python', 1, []);
  }
  const kernels = host.ctx.index.kernels;
  const { dynamo, aot } = kernels.graphsOf(codeIndex);
  const entries = kernels.entriesOf(codeIndex);
  const keyOfNodes = (nodes: string[], aotNodes: string[]): RowKey =>
    nodesKey(host.ctx, frame, dynamo, nodes) ?? nodesKey(host.ctx, frame, aot, aotNodes);
  const keys: RowKey[] = oc.source.split('\n').map(raw => {
    const file = FILE_COMMENT.exec(raw);
    return file ? rowKey(host.ctx, frame, file[1], Number(file[2])) : null;
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
  const rows = lines.map((line, i) => codeRow(host, i + 1, [[line, '']], keys[i]));
  for (const [line, ref] of calls) {
    const row = rows[line - 1];
    if (row) {
      row.dataset.call = ref.kernel;
      row.classList.add('jp-DynamoExplorer-kernelCall');
      row
        .querySelector('.jp-DynamoExplorer-lineCode')
        ?.after(nodeLinks(host, frame, codeIndex, ref.nodes, ref.aotNodes));
    }
  }
  const element = h('div', { class: 'jp-DynamoExplorer-outputCode', data: { codeIndex: String(codeIndex) } });
  element.appendChild(kernelIndex(host, frame, codeIndex, entries));
  for (const seg of parts) {
    element.appendChild(segment(host, frame, codeIndex, seg, rows));
  }
  const done = highlightOutput(host.ctx, oc, lines.length, rows, parts);
  return { element, done, lines: lines.length };
}

/** The index of an output code's kernels: one row per call (or uncalled kernel), with its nodes. */
function kernelIndex(host: IOutputCodeHost, frame: Frame, codeIndex: number, entries: IKernelRef[]): HTMLElement {
  const list = h('ol', { class: 'jp-DynamoExplorer-kernelIndexList' });
  for (const ref of entries) {
    const defined = host.ctx.index.kernels.kernelOf(ref.code, ref.kernel);
    list.appendChild(
      h(
        'li',
        { data: { kernel: ref.kernel } },
        button(ref.kernel, () => void host.showKernel(ref), {
          class: 'jp-DynamoExplorer-link jp-DynamoExplorer-kernelName',
          title: defined ? `show the ${ref.kernel} kernel` : `show the call of ${ref.kernel}`
        }),
        h('span', {
          class: 'jp-DynamoExplorer-muted',
          text: defined ? (LANGUAGE_TITLE[defined.language] ?? defined.language) : 'extern'
        }),
        nodeLinks(host, frame, codeIndex, ref.nodes, ref.aotNodes)
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
function segment(
  host: IOutputCodeHost,
  frame: Frame,
  codeIndex: number,
  seg: ISegment,
  rows: HTMLElement[]
): HTMLElement {
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
  const kernel = host.ctx.index.kernels.kernelOf(codeIndex, seg.kernel);
  const calls = host.ctx.index.kernels.entriesOf(codeIndex).filter(r => r.kernel === seg.kernel && r.line !== null);
  const title = h(
    'div',
    { class: 'jp-DynamoExplorer-kernelTitle' },
    h('span', { class: 'jp-DynamoExplorer-kernelName', text: seg.kernel }),
    h('span', {
      class: 'jp-DynamoExplorer-muted',
      text: kernel ? (LANGUAGE_TITLE[kernel.language] ?? kernel.language) : ''
    }),
    kernel ? nodeLinks(host, frame, codeIndex, kernel.nodes ?? [], kernel.aot_nodes ?? []) : null,
    ...calls.map(ref =>
      button(`called at line ${ref.line}`, () => host.showLine(ref.line!), {
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
function nodeLinks(
  host: IOutputCodeHost,
  frame: Frame,
  codeIndex: number,
  nodes: string[],
  aotNodes: string[]
): HTMLElement {
  const { dynamo, aot } = host.ctx.index.kernels.graphsOf(codeIndex);
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
    const link = button(name, () => void host.ctx.showNode(graph.id, name), {
      class: 'jp-DynamoExplorer-link jp-DynamoExplorer-nodeLink',
      title: `select ${name} in the ${KIND_TITLE[graph.kind] ?? graph.kind} picture`,
      data: { node: name, graph: String(graph.id) }
    });
    host.link(link, rowKey(host.ctx, frame, node.filename, node.line)?.key ?? null);
    out.append(link);
  }
  return out;
}

/** Highlight an output code: the wrapper as Python, each kernel's body in its language. */
async function highlightOutput(
  ctx: IViewContext,
  oc: OutputCode,
  count: number,
  rows: HTMLElement[],
  parts: ISegment[]
): Promise<void> {
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
      highlightLines(ctx.index.labelPaths(oc.source), 'python'),
      ...bodies.map(b => highlightLines(b.text, 'cpp'))
    ]);
    fill(1, python.slice(0, count));
    cpp.forEach((lines, i) => fill(bodies[i].first, lines));
  } catch {
    // Keep the plain text: highlighting is a convenience.
  }
}
