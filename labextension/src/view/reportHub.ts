/**
 * Where rendered reports announce themselves, so that the notebook plugin (cellGutter.ts) finds the views
 * drawn in a cell's output area: the MIME renderer (widget.ts) announces a view once it is drawn and
 * withdraws it when the output is re-rendered, cleared or disposed. The MIME extension and the plugin are
 * two entry points of one package, so they share this module; the standalone page announces nothing.
 *
 * Actions: a notebook host (notebookFix.ts, registered by the plugin) can re-run the cell of a drawn report
 * with one fix applied, and ask the kernel for a part the report holds only in part (`partLoader`). `setReportHost` registers it; a pane asks `watchActions(view, listener)` what the host
 * offers its view, now and whenever that changes (the view announced or withdrawn, a host set), and shows its
 * buttons only while it offers something: the standalone page, an output view and a console get none.
 */
import type { PartLoader } from '../model/partsModel';
import { tryCellSource } from '../model/tryFixModel';
import type { CompileReport } from '../schema';
import type { IReportView, IViewContext } from './context';

/** A report drawn now: the renderer's root node and its view. */
export interface IShownReport {
  readonly node: HTMLElement;
  readonly view: IReportView;
}

/** Told of each view drawn (`shown` true) and withdrawn (false). */
export type ReportListener = (report: IShownReport, shown: boolean) => void;

/**
 * Where a host runs the cell again: in a new notebook cell below (the JupyterLab notebook host), or in the kernel,
 * its report drawn below the explorer that asked (the widget host, anywidget.ts).
 */
export type RunPlace = 'new-cell' | 'below-explorer';

/** A notebook host: what it can do with the notebook cell whose output area holds a report's node. */
export interface IReportHost {
  /** Where `runBelow` runs the cell (default 'new-cell'). */
  readonly place?: RunPlace;
  /** That cell's source, or null when the node is not in a cell the host can run. */
  cellSource(node: HTMLElement): string | null;
  /** Insert a code cell below that cell with `source` and run it; resolves once the new cell is queued. */
  runBelow(node: HTMLElement, source: string): Promise<void>;
  /**
   * Ask the kernel that ran the report drawn at `node` for a part the report holds only in part (schema
   * `PartCut.key`); resolves to the kernel's answer (kernel_ext/parts.py: `{key, part, error}`). Absent: the host
   * cannot ask a kernel.
   */
  loadPart?(node: HTMLElement, key: string): Promise<unknown>;
  /**
   * Ask that kernel to write every part into the output of the report drawn at `node`, which lacks the part `key`
   * ([Note: an output completed once drawn]); resolves to the kernel's answer (`{key, held, error}`). Absent: the
   * host cannot.
   */
  completeParts?(node: HTMLElement, key: string): Promise<unknown>;
}

/** What a host offers one drawn report. */
export interface IReportActions {
  /** Where `tryFix` runs the cell. */
  readonly place: RunPlace;
  /** The `%%dynamo` line `tryFix(name)` runs. */
  tryLine(name: string): string;
  /** Run the report's cell again, in a new cell below, with the fix `name` applied. */
  tryFix(name: string): Promise<void>;
}

/** Told what a host offers a view (null: nothing). */
export type ActionsListener = (actions: IReportActions | null) => void;

/** Draws another report in place of a view (its host's; `announceReport`). */
export type Redraw = (report: CompileReport) => Promise<void>;

const reports = new Map<HTMLElement, IReportView>();
const redraws = new Map<HTMLElement, Redraw>();
const listeners = new Set<ReportListener>();
const watchers = new Set<{ view: IViewContext; listener: ActionsListener }>();
let host: IReportHost | null = null;

/** Tell every listener; one that throws is logged and never fails the renderer. */
function tell(report: IShownReport, shown: boolean): void {
  for (const listener of Array.from(listeners)) {
    try {
      listener(report, shown);
    } catch (error) {
      console.error('Dynamo Explorer: a report listener failed', error);
    }
  }
}

/**
 * A renderer's view is drawn: tell the listeners. `redraw`: how its host draws another report in its place (the
 * ranks view showing another rank), absent where it cannot.
 */
export function announceReport(node: HTMLElement, view: IReportView, redraw?: Redraw): void {
  withdrawReport(node);
  reports.set(node, view);
  if (redraw) {
    redraws.set(node, redraw);
  }
  tell({ node, view }, true);
  tellWatchers(view);
}

/**
 * A renderer's view is gone (re-rendered, cleared, disposed): tell the listeners. A node with no view is ignored.
 */
export function withdrawReport(node: HTMLElement): void {
  const view = reports.get(node);
  if (!view) {
    return;
  }
  reports.delete(node);
  redraws.delete(node);
  tell({ node, view }, false);
  tellWatchers(view);
}

/**
 * The reports drawn now, in the order they were drawn.
 */
export function shownReports(): IShownReport[] {
  return Array.from(reports, ([node, view]) => ({ node, view }));
}

/**
 * Listen to reports drawn and withdrawn; returns the function that stops listening.
 */
export function onReports(listener: ReportListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * What the host offers a view now: null when no host is set, the view is not drawn (announced), or the host
 * cannot run the cell that shows it.
 */
export function reportActions(view: IViewContext): IReportActions | null {
  const node = Array.from(reports).find(([, v]) => v === view)?.[0];
  const current = host;
  if (!node || !current) {
    return null;
  }
  const source = (): string | null => {
    try {
      return current.cellSource(node);
    } catch (error) {
      console.error('Dynamo Explorer: the notebook host failed', error);
      return null;
    }
  };
  const cell = source();
  if (cell === null || tryCellSource(cell, 'x') === null) {
    return null; // not a %%dynamo cell of a notebook
  }
  const trySource = (name: string): string => {
    const text = tryCellSource(source() ?? cell, name);
    if (text === null) {
      throw new Error('the cell no longer starts with a %%dynamo line');
    }
    return text;
  };
  return {
    place: current.place ?? 'new-cell',
    tryLine: name => trySource(name).split('\n', 1)[0],
    tryFix: name => current.runBelow(node, trySource(name))
  };
}

/**
 * How to ask the kernel for a part of the report `view` draws, or null: no host, the view is not drawn
 * (announced), or its host cannot ask a kernel. Unlike `reportActions` it needs no `%%dynamo` cell.
 */
export function partLoader(view: IViewContext): PartLoader | null {
  const node = Array.from(reports).find(([, v]) => v === view)?.[0];
  const current = host;
  if (!node || !current?.loadPart) {
    return null;
  }
  const load = current.loadPart.bind(current);
  return key => load(node, key);
}

/**
 * Ask the host to write every part into the output of the report drawn at `node` that lacks the part `key`; false when
 * no host can.
 */
export function completeParts(node: HTMLElement, key: string): Promise<unknown> | false {
  const current = host;
  return current?.completeParts ? current.completeParts(node, key) : false;
}

/** How to draw another report in place of `view`, or null: the view is not drawn (announced) or its host cannot. */
export function reportRedraw(view: IViewContext): Redraw | null {
  const node = Array.from(reports).find(([, v]) => v === view)?.[0];
  return (node && redraws.get(node)) || null;
}

/**
 * Follow what the host offers a view: `listener` is called now and whenever it may have changed; returns the
 * function that stops.
 */
export function watchActions(view: IViewContext, listener: ActionsListener): () => void {
  const watcher = { view, listener };
  watchers.add(watcher);
  callWatcher(watcher);
  return () => {
    watchers.delete(watcher);
  };
}

/**
 * Register the notebook host (null: none); returns the function that removes it. Every watcher is told.
 */
export function setReportHost(next: IReportHost | null): () => void {
  host = next;
  for (const watcher of Array.from(watchers)) {
    callWatcher(watcher);
  }
  return () => {
    if (host === next) {
      setReportHost(null);
    }
  };
}

/** Tell the watchers of one view. */
function tellWatchers(view: IViewContext): void {
  for (const watcher of Array.from(watchers)) {
    if (watcher.view === view) {
      callWatcher(watcher);
    }
  }
}

/** Call one watcher; one that throws is logged and never fails the renderer. */
function callWatcher(watcher: { view: IViewContext; listener: ActionsListener }): void {
  try {
    watcher.listener(reportActions(watcher.view));
  } catch (error) {
    console.error('Dynamo Explorer: an actions listener failed', error);
  }
}
