// seqorder/relaxed: the relaxed-SIMD build's modules, named for bundlers. An app that loads seqorder with
// `simd: 'relaxed'` imports this module once, anywhere (`import 'seqorder/relaxed';`): its URL literals make Vite and
// webpack emit the relaxed main module and model module, which an app without it never ships. Where the
// package's folder is served as it is (node, a static folder), the relaxed modules are found without it.
import { provideRelaxed } from './load.mjs';

provideRelaxed({
  core: new URL('seqorder/seqorder_core_relaxed.wasm', import.meta.url),
  model: new URL('seqorder/seqorder_model_relaxed.wasm', import.meta.url),
});
