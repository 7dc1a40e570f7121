/**
 * Dynamic shapes in words, for the frame title, the guards pane and the header: `dynamicText` (one input that
 * automatic dynamic shapes held dynamic), `markedText` (who marked it, seen from a frame) and `symbolText` (a
 * ShapeEnv symbol, its specialisation included); `symbolsOf`, a compile's symbols. It imports no model and no view.
 */
import type { AutomaticDynamic, CompileReport, Frame, Symbol as ShapeSymbol } from '../schema';

/**
 * One input held dynamic, in words: "L['x'] dim 0 (size (?, 3))", "L['n'] (any value)" (an int; pgo writes a
 * tensor whose number of dims changed alike).
 */
export function dynamicText(d: Pick<AutomaticDynamic, 'source' | 'kind' | 'dims' | 'now'>): string {
  if (d.kind === 'scalar') {
    return `${d.source} (any value)`;
  }
  const dims = d.dims.length === 0 ? 'every dim' : `dim ${d.dims.join(', ')}`;
  return `${d.source} ${dims} (${d.now})`;
}

/**
 * Who marked an input dynamic, seen from `frame`: "marked by this compile, was size (8)", "marked in [0/1]",
 * "marked by an earlier run".
 */
export function markedText(d: AutomaticDynamic, frame: Pick<Frame, 'compile_id'>): string {
  if (d.marked_in === null) {
    return 'marked by an earlier run';
  }
  if (d.marked_in !== frame.compile_id) {
    return `marked in [${d.marked_in}]`;
  }
  const was = d.was ? `, was ${d.was}${d.was_from_earlier_run ? ' in an earlier run' : ''}` : '';
  return `marked by this compile${was}`;
}

/** The dynamic-shape symbols a compile traced with, in the report's order (none for a static compile). */
export function symbolsOf(report: CompileReport, compileId: string): ShapeSymbol[] {
  return report.symbols.filter(s => s.compile_id === compileId);
}

/**
 * A dynamic-shape symbol as the frame title shows it: `s0 = L['x'].size()[0] = 8, [2, int_oo]`; a symbol
 * ShapeEnv specialised adds it: `…, specialized to 3 (range_refined_to_singleton: L['x'].size()[0] == 3)`.
 */
export function symbolText(symbol: ShapeSymbol): string {
  const base = `${symbol.symbol} = ${symbol.source} = ${symbol.value}, ${symbol.range}`;
  if (symbol.specialized_to === null || symbol.specialized_to === undefined) {
    return base;
  }
  const why = [symbol.specialization_reason, symbol.specialization_guard].filter(Boolean).join(': ');
  return `${base}, specialized to ${symbol.specialized_to}${why ? ` (${why})` : ''}`;
}
