/**
 * What every pane gets from the view: the report, its indexes, the line linker, and navigation
 * (`IViewContext`); and what a pane, the notebook hosts and `openMark` may reach of the whole view
 * (`IReportView`: its panes and their layout). `ReportView` (view.ts) implements both. A base module: it
 * imports types of the models and the linker only, never the view or a pane, so that the panes depend on
 * it and not on view.ts (no import circle, type-only ones included).
 */
import type { IKernelRef } from '../model/kernels';
import type { ReportIndex } from '../model/model';
import type { CompileReport, Frame, PaneName } from '../schema';
import type { LineLinker } from './linking';

/** Shared state and navigation of one rendered report. */
export interface IViewContext {
  readonly report: CompileReport;
  readonly index: ReportIndex;
  readonly linker: LineLinker;
  /** The frame shown now. */
  readonly frame: Frame | null;
  /** Show a frame in every per-frame pane. */
  selectFrame(compileId: string): Promise<void>;
  /** Show a graph (selecting its frame first) and scroll the FX pane into view. */
  showGraph(graphId: number): Promise<void>;
  /** Show a line of a frame's source (selecting the frame first when given) and flash it. */
  jumpToLine(frame: Frame | null, line: number): Promise<void>;
  /** Select a node of a graph in the FX pane and centre it (showing the graph first). */
  showNode(graphId: number, nodeName: string): Promise<void>;
  /** Open the code pane's inductor tab on a kernel (an extern kernel: its call), highlighted and in view. */
  showKernel(ref: IKernelRef): Promise<void>;
}

/** What the view and its layout know of a pane: its name and its element (the `Pane` base class has both). */
export interface IPaneHandle {
  readonly name: PaneName;
  readonly element: HTMLElement;
}

/** The layout's part a navigation needs: bring a pane into view (restoring a maximised other pane). */
export interface IPaneReveal {
  reveal(name: PaneName): void;
}

/** The whole report view: its context, its panes by name (in the schema's order) and their layout. */
export interface IReportView extends IViewContext {
  readonly panes: ReadonlyMap<PaneName, IPaneHandle>;
  readonly layout: IPaneReveal;
}
