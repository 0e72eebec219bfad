/** Compile-time errors of eval programs (they become `ModuleError: eval: ...` parse errors). */
import { ModuleArgError } from '../types';

export class EvalSyntaxError extends ModuleArgError {
  constructor(problem: string, pos: number) {
    super(`${problem} at offset ${pos}`);
    this.name = 'EvalSyntaxError';
  }
}
