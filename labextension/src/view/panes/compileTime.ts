/**
 * Compile-time pane: where the compile of the frame shown went, as a chart of its nested phases on a time
 * axis (compileChart.ts): Dynamo's tracing and guards, the backend, AOTAutograd, inductor's code generation,
 * the C++ or Triton compiles, cache lookups, and a training step's lazy backward compile.
 */
import { CompileChart } from './compileChart';
import { PANE_TITLES, type Frame } from '../../schema';
import { Pane } from './pane';
import type { IViewContext } from '../context';

/**
 * The compile-time pane.
 */
export class CompileTimePane extends Pane {
  private _chart: CompileChart | null = null;

  constructor(ctx: IViewContext) {
    super(ctx, 'compile-time');
  }

  /** The chart drawn for the frame shown now, if it has phases. */
  get chart(): CompileChart | null {
    return this._chart;
  }

  /** Draw the chart of a frame's phases. */
  protected render(frame: Frame): void {
    this._chart = null;
    this.title.textContent = `${PANE_TITLES['compile-time']} of [${frame.compile_id}]`;
    if (frame.phases.length === 0) {
      this.showEmpty('No phase times for this frame.');
      return;
    }
    this._chart = new CompileChart(frame.phases, { compileId: frame.compile_id });
    this.body.textContent = '';
    this.body.appendChild(this._chart.element);
  }

  /** No frame: no chart. */
  protected renderNoFrame(): void {
    this._chart = null;
    this.title.textContent = PANE_TITLES['compile-time'];
    super.renderNoFrame();
  }
}
