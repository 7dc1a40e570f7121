/**
 * The pane registry: the class that draws each pane of the schema's `x-dynamo-explorer.panes` and where the
 * view puts it. The registry is in the schema's order (`PANES`, generated into schema.ts), and TypeScript
 * refuses an entry list that misses a pane or names one the schema does not have.
 *
 * Adding a pane: a `Pane` subclass in its own file (panes/*.ts), one entry in `ENTRIES` below, one entry in
 * the schema's `x-dynamo-explorer.panes` (`npm run build:schema`), and its CSS file (style/panes/*.css,
 * imported from style/index.css).
 */
import type { IViewContext } from '../context';
import { PANES, type PaneName } from '../../schema';
import { BytecodePane } from './bytecode';
import { CodePane } from './code';
import { CompileTimePane } from './compileTime';
import { DecisionsPane } from './decisions';
import { DispatchViewPane } from './dispatchView';
import { ExportPane } from './export';
import { FramesPane } from './frames';
import { FxGraphPane } from './fxGraph';
import { GraphBreaksPane } from './graphBreaks';
import { GuardsPane } from './guards';
import { HeaderPane } from './header';
import { NumericsPane } from './numerics';
import type { Pane } from './pane';
import { ProfilePane } from './profile';
import { SourcePane } from './source';
import { TraceStepsPane } from './traceSteps';
import { TryFixPane } from './tryFix';

/** Where the view puts a pane: above everything, in the frame navigator's column, or in the main column. */
export type PaneSlot = 'top' | 'nav' | 'main';

/** Rows of the main column whose panes sit side by side, and their classes. */
export const ROW_CLASSES = {
  /** Source, original and modified bytecode: three columns. */
  code: 'jp-DynamoExplorer-columns',
  /** Guards and graph breaks: two columns. */
  checks: 'jp-DynamoExplorer-columns jp-DynamoExplorer-columns2'
} as const;

/** A row of side-by-side panes. */
export type PaneRow = keyof typeof ROW_CLASSES;

/** One registered pane. */
export interface IPaneEntry {
  /** The pane's name (`data-pane`), from the schema. */
  readonly name: PaneName;
  /** Where the view puts it. */
  readonly slot: PaneSlot;
  /** In the main column: the row it shares with the panes next to it in `PANES` (none: a row of its own). */
  readonly row?: PaneRow;
  /** Build the pane of one report. */
  create(ctx: IViewContext): Pane;
}

/** Every pane of the schema, exactly once (the mapped type makes a missing or unknown pane a type error). */
const ENTRIES: { readonly [K in PaneName]: Omit<IPaneEntry, 'name'> } = {
  header: { slot: 'top', create: ctx => new HeaderPane(ctx) },
  profile: { slot: 'top', create: ctx => new ProfilePane(ctx) },
  frames: { slot: 'nav', create: ctx => new FramesPane(ctx) },
  source: { slot: 'main', row: 'code', create: ctx => new SourcePane(ctx) },
  'original-bytecode': { slot: 'main', row: 'code', create: ctx => new BytecodePane(ctx, 'original') },
  'modified-bytecode': { slot: 'main', row: 'code', create: ctx => new BytecodePane(ctx, 'modified') },
  guards: { slot: 'main', row: 'checks', create: ctx => new GuardsPane(ctx) },
  'graph-breaks': { slot: 'main', row: 'checks', create: ctx => new GraphBreaksPane(ctx) },
  'trace-steps': { slot: 'main', create: ctx => new TraceStepsPane(ctx) },
  decisions: { slot: 'main', create: ctx => new DecisionsPane(ctx) },
  'try-fix': { slot: 'main', create: ctx => new TryFixPane(ctx) },
  numerics: { slot: 'main', create: ctx => new NumericsPane(ctx) },
  export: { slot: 'main', create: ctx => new ExportPane(ctx) },
  dispatch: { slot: 'main', create: ctx => new DispatchViewPane(ctx) },
  'compile-time': { slot: 'main', create: ctx => new CompileTimePane(ctx) },
  'fx-graph': { slot: 'main', create: ctx => new FxGraphPane(ctx) },
  code: { slot: 'main', create: ctx => new CodePane(ctx) }
};

/** The registry, in the schema's display order. */
export const PANE_REGISTRY: readonly IPaneEntry[] = PANES.map(name => ({ name, ...ENTRIES[name] }));
