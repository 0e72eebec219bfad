/**
 * The part of the WebAssembly JavaScript API the service uses (lz4-wasm.ts). Node has it as a
 * global; TypeScript declares it only in the DOM library, which this Node project leaves out.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView | ArrayBuffer);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(deltaPages: number): number;
  }
}
