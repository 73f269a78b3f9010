/**
 * seqorder/figures.css: the stylesheet of the figures and checks (their layout, and the theme they draw with, light
 * and dark), imported for its effect: `import 'seqorder/figures.css';` from a bundled app's script, or
 * `@import 'seqorder/figures.css';` from its stylesheet. It exports nothing; this declaration lets TypeScript (whose
 * noUncheckedSideEffectImports refuses an import it cannot resolve) accept the import.
 */
export {};
