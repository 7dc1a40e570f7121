/**
 * The explorer as an anywidget (kernel_ext/widget.py `ExplorerWidget`): the same `ReportView` the JupyterLab
 * renderer and the standalone page draw, for every frontend that has ipywidgets but not our extension
 * (JupyterLab or Notebook 7 without it, VS Code, Colab, marimo, Voilà).
 *
 * esbuild bundles this file with the view and the wasm graphviz into one self-contained ES module
 * (`npm run build:widget` -> kernel_ext/standalone/widget.js); anywidget sends its text through the widget's
 * comm and imports it from a `blob:` URL, so nothing is fetched. The CSS is the standalone bundle's
 * (the widget's `_css`).
 *
 * The kernel is the widget's other end, through its comm:
 * - the live progress line of a `%%dynamo` run is this widget, pending: the view shows its `summary` as it
 *   changes, and draws the report the kernel pushes (`{kind: 'report', report, cell}`) when the run is over.
 * - the report is not a synced trait: a view asks for it (`{kind: 'report?'}`) and draws the answer
 *   (`{kind: 'report', report, cell}`), so a notebook saved with its widget state does not hold the report a
 *   second time beside the output's own MIME copy. With no kernel to answer, the view says how to see it.
 * - Try it (the Try a fix pane) works in every frontend: this module is the report host (reportHub.ts) of the
 *   views it draws; a fix's run is sent as the `%%dynamo` cell with `--try NAME` (`{kind: 'run', source}`),
 *   the kernel runs it (`run_dynamo_cell`) and answers `{kind: 'ran', source, report, stdout, stderr, error}`,
 *   drawn below the explorer that asked.
 * - A part the report holds only in part (schema `parts_cut`) is loaded on request: `{kind: 'part?', key}` ->
 *   `{kind: 'part', key, part, error}` (kernel_ext/parts.py).
 * - A diff of two runs (`%dynamo_diff`, `explore.diff`: kernel_ext/comparison.py) is the same widget, its payload the
 *   diff: drawn by the diff view (view/diffView.ts).
 */
import type { AnyModel, RenderProps } from '@anywidget/types';
import { h } from '../dom';
import { checkDiff } from '../model/diffModel';
import { loadReport } from '../model/encoding';
import { DiffView } from '../view/diffView';
import { announceReport, setReportHost, withdrawReport, type IReportHost } from '../view/reportHub';
import { CLASS_NAME, STANDALONE_CLASS } from './rootClasses';
import { ReportView, showProblem } from '../view/view';

/** How long a view waits for the kernel's report before it says there is none. */
export const ANSWER_TIMEOUT_MS = 15_000;
/** How long a view waits for a part (a busy kernel answers once its cell is done). */
const PART_TIMEOUT_MS = 120_000;

/**
 * The widget's synced state (kernel_ext/widget.py): a one-line summary, shown while the report comes; `pending`
 * while the run still compiles (the summary is then its live progress line, and the report is pushed when done).
 */
export interface IExplorerState {
  summary: string;
  pending?: boolean;
}

/** A message from the kernel. */
interface IKernelMessage {
  kind?: string;
  key?: string;
  part?: unknown;
  report?: unknown;
  cell?: string | null;
  source?: string;
  stdout?: string;
  stderr?: string;
  error?: string | null;
}

/** The text shown when no kernel answers. */
export const NO_KERNEL =
  'This explorer draws from the kernel that ran the cell, and no kernel answered: run the cell again, or open ' +
  'the notebook where the Dynamo Explorer JupyterLab extension is installed (it draws the report saved in the output).';

/** A view drawn by this module: its widget's model, its `%%dynamo` cell (null: explore()), where runs of it are drawn. */
interface IDrawn {
  model: AnyModel<IExplorerState>;
  cell: string | null;
  runs: HTMLElement;
  /** Takes down the views drawn by its runs. */
  undo: Array<() => void>;
}

const drawn = new Map<HTMLElement, IDrawn>();

/** The report host of the views this module draws (see the module docstring). */
const host: IReportHost = {
  place: 'below-explorer',
  cellSource: node => drawn.get(node)?.cell ?? null,
  runBelow: (node, source) => {
    const entry = drawn.get(node);
    if (!entry) {
      return Promise.reject(new Error('this explorer is no longer shown'));
    }
    return runInKernel(entry, source);
  },
  loadPart: (node, key) => {
    const entry = drawn.get(node);
    if (!entry) {
      return Promise.reject(new Error('this explorer is no longer shown'));
    }
    return ask(entry.model, { kind: 'part?', key }, a => a.kind === 'part' && a.key === key, PART_TIMEOUT_MS);
  }
};

/**
 * Does the page define JupyterLab's theme variables here? (JupyterLab and Notebook 7 do; marimo, VS Code and a
 * plain page do not, or not all: the view then takes the light-theme values.)
 */
function hasJupyterTheme(el: HTMLElement): boolean {
  return getComputedStyle(el).getPropertyValue('--jp-layout-color1').trim() !== '';
}

/** Send `message` and wait for the kernel's first answer that `accept` takes; null after `timeoutMs` (if given). */
function ask(
  model: AnyModel<IExplorerState>,
  message: object,
  accept: (answer: IKernelMessage) => boolean,
  timeoutMs?: number
): Promise<IKernelMessage | null> {
  return new Promise(resolve => {
    const onMessage = (answer: IKernelMessage): void => {
      if (answer && accept(answer)) {
        done(answer);
      }
    };
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => done(null), timeoutMs);
    const done = (value: IKernelMessage | null): void => {
      clearTimeout(timer);
      model.off('msg:custom', onMessage);
      resolve(value);
    };
    model.on('msg:custom', onMessage);
    model.send(message);
  });
}

/** Ask the kernel for the widget's report: `{report, cell}`, or null after `timeoutMs` with no answer. */
export async function askForReport(
  model: AnyModel<IExplorerState>,
  timeoutMs = ANSWER_TIMEOUT_MS
): Promise<{ report: unknown; cell: string | null } | null> {
  const answer = await ask(model, { kind: 'report?' }, a => a.kind === 'report', timeoutMs);
  return answer && { report: answer.report, cell: answer.cell ?? null };
}

/**
 * The report the kernel pushes when the run of a pending widget is over; null when the view goes first (`signal`:
 * the output was re-rendered, e.g. by the display update that brings the same report).
 */
function pushedReport(
  model: AnyModel<IExplorerState>,
  signal?: AbortSignal
): Promise<{ report: unknown; cell: string | null } | null> {
  return new Promise(resolve => {
    const done = (value: { report: unknown; cell: string | null } | null): void => {
      model.off('msg:custom', onMessage);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onMessage = (message: IKernelMessage): void => {
      if (message && message.kind === 'report') {
        done({ report: message.report, cell: message.cell ?? null });
      }
    };
    const onAbort = (): void => done(null);
    model.on('msg:custom', onMessage);
    signal?.addEventListener('abort', onAbort);
  });
}

/** A root for one report, inside `parent`. */
function newRoot(parent: HTMLElement, light: boolean): HTMLElement {
  const root = h('div', { class: CLASS_NAME, data: { status: 'loading', host: 'widget' } });
  if (light) {
    root.classList.add(STANDALONE_CLASS);
  }
  parent.appendChild(root);
  return root;
}

/**
 * Draw `payload` into `root` (or why it cannot be drawn); the view is announced with this module as its host,
 * so its parts load from the kernel, and with a `%%dynamo` cell its Try it runs there. Returns the function that
 * takes it down.
 */
async function drawReport(
  root: HTMLElement,
  payload: unknown,
  cell: string | null,
  model: AnyModel<IExplorerState>
): Promise<() => void> {
  if (isDiff(payload)) {
    const checked = checkDiff(payload);
    if (!checked.ok) {
      showProblem(root, checked);
      return () => undefined;
    }
    const diffView = new DiffView(root, checked.diff);
    diffView.start();
    return () => diffView.dispose();
  }
  const check = await loadReport(payload);
  if (!check.ok) {
    showProblem(root, check);
    return () => undefined;
  }
  const view = new ReportView(root, check.report);
  await view.start();
  const undo: Array<() => void> = [];
  const runs = h('div', { class: 'jp-DynamoExplorer-widgetRuns' });
  root.after(runs);
  drawn.set(root, { model, cell, runs, undo });
  let down = (): void => {
    undo.splice(0).forEach(step => step());
    withdrawReport(root);
    drawn.delete(root);
    runs.remove();
    view.dispose();
  };
  // the ranks view draws another rank in this root (redraw): this view goes, the next one is taken down instead
  const redraw = async (report: unknown): Promise<void> => {
    down();
    root.replaceChildren();
    root.dataset.status = 'loading';
    down = await drawReport(root, report, cell, model);
  };
  setReportHost(host);
  announceReport(root, view, redraw);
  return () => down();
}

/** Is `payload` a diff of two runs (it has a `diff_version`) rather than a report? */
function isDiff(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && 'diff_version' in payload;
}

/** Run a `%%dynamo` cell (a fix's `--try` run) in the kernel and draw what it answers below the explorer. */
async function runInKernel(entry: IDrawn, source: string): Promise<void> {
  const run = h(
    'div',
    { class: 'jp-DynamoExplorer-widgetRun', data: { state: 'running' } },
    h('code', { class: 'jp-DynamoExplorer-tryLine', text: source.split('\n', 1)[0] })
  );
  entry.runs.appendChild(run);
  const answer = await ask(entry.model, { kind: 'run', source }, a => a.kind === 'ran' && a.source === source);
  for (const text of [answer?.stdout, answer?.stderr]) {
    if (text) {
      run.appendChild(h('pre', { class: 'jp-DynamoExplorer-widgetRunText', text }));
    }
  }
  if (answer?.error) {
    run.appendChild(h('div', { class: 'jp-DynamoExplorer-tryStatus jp-mod-error', text: answer.error }));
  }
  if (answer?.report) {
    entry.undo.push(await drawReport(newRoot(run, !hasJupyterTheme(entry.runs)), answer.report, source, entry.model));
  }
  run.dataset.state = answer?.error ? 'error' : 'done';
  if (answer?.error) {
    throw new Error(answer.error);
  }
}

/**
 * Draw one view of the widget into `el`; returns the function anywidget calls when the view goes.
 */
export async function render({ model, el, signal }: RenderProps<IExplorerState>): Promise<() => void> {
  const root = newRoot(el, !hasJupyterTheme(el));
  const waiting = h('div', { class: 'jp-DynamoExplorer-widgetWaiting', text: model.get('summary') });
  root.appendChild(waiting);
  const onSummary = (): void => {
    waiting.textContent = model.get('summary');
  };
  model.on('change:summary', onSummary);
  // a pending widget is the live progress line of a run still compiling: the kernel answers no message until the
  // cell is done, so the view waits for the report the kernel pushes then (ExplorerWidget.show)
  const answer = model.get('pending') ? await pushedReport(model, signal) : await askForReport(model);
  model.off('change:summary', onSummary);
  waiting.remove();
  if (signal?.aborted) {
    return () => undefined; // the view is gone: nothing to draw
  }
  // the theme is read again now: a progress line's view was made before its output was in the page
  root.classList.toggle(STANDALONE_CLASS, !hasJupyterTheme(el));
  if (answer === null) {
    showProblem(root, { kind: 'no-kernel', message: NO_KERNEL });
    return () => undefined;
  }
  return drawReport(root, answer.report, answer.cell, model);
}

export default { render };
