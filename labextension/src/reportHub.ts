/**
 * Where rendered reports announce themselves, so that the notebook plugin (cellGutter.ts) finds the views
 * drawn in a cell's output area: the MIME renderer (widget.ts) announces a view once it is drawn and
 * withdraws it when the output is re-rendered, cleared or disposed. The MIME extension and the plugin are
 * two entry points of one package, so they share this module; the standalone page announces nothing.
 */
import type { ReportView } from './view';

/** A report drawn now: the renderer's root node and its view. */
export interface IShownReport {
  readonly node: HTMLElement;
  readonly view: ReportView;
}

/** Told of each view drawn (`shown` true) and withdrawn (false). */
export type ReportListener = (report: IShownReport, shown: boolean) => void;

const reports = new Map<HTMLElement, ReportView>();
const listeners = new Set<ReportListener>();

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
 * A renderer's view is drawn: tell the listeners.
 */
export function announceReport(node: HTMLElement, view: ReportView): void {
  withdrawReport(node);
  reports.set(node, view);
  tell({ node, view }, true);
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
  tell({ node, view }, false);
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
