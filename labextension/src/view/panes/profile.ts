/**
 * Profile pane, "Why is it slow" (issue 12 items 1-3): did the compile help, and what does each graph, graph
 * break and recompile cost. Drawn once for the report from `profile` (`--profile`) and `eager_baseline`
 * (`--compare-eager`), through profileModel.ts:
 * - the run split (compiled | eager | compile) as one stacked bar, and with a baseline the speedup over eager,
 *   when the compile pays back, and each compiled function's speedup;
 * - graphs ranked by time (a row opens its graph in the FX pane), each one's first call (its compile work and
 *   autotuning) apart from the calls after it, cache entries (hits and time), eager time by cause (a graph
 *   break's row shows its line), captured-op coverage as in TorchDynamo Update 5, the backward split, on a GPU
 *   the device time no graph launched (eager kernels, autotuning's), and how it was all measured.
 * Without a profile it says how to get one. Tables sort by a click (or Enter) on a column's head. The sections
 * are drawn by profileSummary.ts, profileGraphs.ts and profileTables.ts, their tables by profileTable.ts.
 */
import type { IViewContext } from '../context';
import { h } from '../../dom';
import { baselineOf, noProfileText, profileOf } from '../../model/profileModel';
import type { Frame } from '../../schema';
import { Pane } from './pane';
import { graphsSection } from './profileGraphs';
import { baselineSection, deviceSection, splitSection } from './profileSummary';
import type { IProfileTables } from './profileTable';
import { backwardSection, coverageSection, eagerSection, entriesSection } from './profileTables';

/**
 * The profile pane.
 */
export class ProfilePane extends Pane {
  /** The rows marked with a compile id (graphs, entries, eager causes, coverage), for the shown frame's mark. */
  private readonly _framed: HTMLElement[] = [];
  private readonly _tables: IProfileTables;

  constructor(ctx: IViewContext) {
    super(ctx, 'profile');
    this._tables = { ctx, framed: this._framed };
    const profile = profileOf(ctx.report);
    const baseline = baselineOf(ctx.report);
    const summary = h('div', { class: 'jp-DynamoExplorer-profileSummary' });
    this.body.appendChild(summary);
    if (profile) {
      summary.appendChild(splitSection(profile));
      const device = deviceSection(profile);
      if (device) {
        summary.appendChild(device);
      }
    }
    if (baseline) {
      summary.appendChild(baselineSection(this._tables, baseline));
    }
    if (!profile) {
      summary.appendChild(
        h('div', { class: 'jp-DynamoExplorer-empty', data: { hint: 'profile' }, text: noProfileText(ctx.report) })
      );
    } else {
      this.body.appendChild(
        h(
          'div',
          { class: 'jp-DynamoExplorer-profileGrid' },
          graphsSection(this._tables, profile),
          eagerSection(this._tables, profile),
          coverageSection(this._tables, profile),
          entriesSection(this._tables, profile),
          backwardSection(profile)
        )
      );
    }
    const methods = [
      profile ? h('p', { data: { method: 'profile' }, text: `--profile: ${profile.method}` }) : null,
      baseline ? h('p', { data: { method: 'eager_baseline' }, text: `--compare-eager: ${baseline.method}` }) : null
    ];
    if (profile || baseline) {
      this.body.appendChild(
        h(
          'details',
          { class: 'jp-DynamoExplorer-profileMethod', data: { section: 'method' } },
          h('summary', { text: 'How this was measured' }),
          ...methods
        )
      );
    }
  }

  /** Mark the rows of the frame shown now. */
  protected render(frame: Frame): void {
    this._markCurrent(frame.compile_id);
  }

  /** No frame is shown: no row is marked. */
  protected renderNoFrame(): void {
    this._markCurrent(null);
  }

  /** Mark (`jp-mod-current`) the table rows of one frame (null: none). */
  private _markCurrent(compileId: string | null): void {
    for (const row of this._framed) {
      row.classList.toggle('jp-mod-current', compileId !== null && row.dataset.compileId === compileId);
    }
  }
}
