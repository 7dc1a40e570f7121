/**
 * What every pane gets from the view: the report, its indexes, the line linker, and navigation.
 */
import type { IKernelRef } from './kernels';
import type { LineLinker } from './linking';
import type { ReportIndex } from './model';
import type { CompileReport, Frame } from './schema';

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
