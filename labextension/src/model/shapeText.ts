/**
 * Dynamic shapes in words, for the frame title, the guards pane and the header: `dynamicText` (one input that
 * automatic dynamic shapes held dynamic) and `symbolText` (a ShapeEnv symbol, its specialisation included). Text
 * only: it imports no model and no view.
 */
import type { AutomaticDynamic, Symbol as ShapeSymbol } from '../schema';

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
