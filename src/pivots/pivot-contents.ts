import { refusal } from '../common/errors/app-error';
import { isUuid } from '../common/validation/id.pipe';
import { MAX_WIDE_REPETITIONS, patternProblem } from './trigger-pattern';

/**
 * An actionable's `Contents`, in the product's console's shape (wiki api/actionables.md; client
 * types/actionables.go): the menu it shows under, its triggers and its actions. The product
 * stores any JSON here; this service reads it, because the console runs it: every trigger is a
 * pattern RE2 accepts and no backtracking engine takes exponential time over (trigger-pattern.ts),
 * every action names a known command, a dashboard, template or saved query by GUID, a link
 * by an http(s) address, and everything is bounded. Unknown keys are dropped.
 */
export const PIVOT_LIMITS = {
  triggers: 64,
  actions: 64,
  pattern: 1024,
  name: 256,
  menuLabel: 256,
  description: 4096,
  placeholder: 64,
  reference: 16384,
  option: 256,
  /** the whole of Contents as JSON text */
  contentsBytes: 256 * 1024,
} as const;

export const COMMAND_TYPES = ['query', 'template', 'savedQuery', 'dashboard', 'url'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

export interface PivotTrigger {
  pattern: string;
  hyperlink: boolean;
  disabled: boolean;
}

export interface PivotTimeVariable {
  type: 'timestamp' | 'string';
  format: string | null;
  placeholder: string | null;
}

export interface PivotCommandOptions {
  variable?: string;
  modal?: boolean;
  modalWidth?: string;
  noValueUrlEncode?: boolean;
}

export interface PivotCommand {
  type: CommandType;
  reference: string;
  options: PivotCommandOptions;
}

export interface PivotAction {
  name: string;
  description: string | null;
  placeholder: string | null;
  noValueUrlEncode?: boolean;
  start?: PivotTimeVariable;
  end?: PivotTimeVariable;
  command: PivotCommand;
}

export interface PivotContents {
  menuLabel: string | null;
  actions: PivotAction[];
  triggers: PivotTrigger[];
}

const invalid = (where: string, what: string) => refusal('PIVOT_CONTENTS_INVALID', where, what);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(v: unknown, where: string, max: number, opts: { nullable?: boolean; required?: boolean } = {}): string | null {
  if (v === undefined || v === null) {
    if (opts.required) throw invalid(where, 'is required');
    return opts.nullable ? null : '';
  }
  if (typeof v !== 'string') throw invalid(where, 'must be a string');
  if (v.length > max) throw invalid(where, `must be at most ${max} characters`);
  if (opts.required && !v.trim()) throw invalid(where, 'must not be empty');
  return v;
}

function flag(v: unknown, where: string, dflt: boolean): boolean {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw invalid(where, 'must be true or false');
  return v;
}

function list(v: unknown, where: string, max: number): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalid(where, 'must be an array');
  if (v.length > max) throw refusal('PIVOT_TOO_MANY', where, max);
  return v;
}

function trigger(v: unknown, i: number): PivotTrigger {
  const where = `triggers[${i}]`;
  // The product's older form: the pattern alone (a hyperlink, enabled).
  const t = typeof v === 'string' ? { pattern: v } : v;
  if (!isRecord(t)) throw invalid(where, 'must be an object or a string');
  const pattern = text(t.pattern, `${where}.pattern`, PIVOT_LIMITS.pattern, { required: true })!;
  const problem = patternProblem(pattern);
  if (problem?.kind === 'syntax') throw refusal('PIVOT_TRIGGER_INVALID', i, problem.message);
  if (problem?.kind === 'unsafe') throw refusal('PIVOT_TRIGGER_UNSAFE', i, problem.part);
  if (problem?.kind === 'wide') throw refusal('PIVOT_TRIGGER_TOO_WIDE', i, problem.count, MAX_WIDE_REPETITIONS);
  return { pattern, hyperlink: flag(t.hyperlink, `${where}.hyperlink`, true), disabled: flag(t.disabled, `${where}.disabled`, false) };
}

function timeVariable(v: unknown, where: string): PivotTimeVariable | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw invalid(where, 'must be an object');
  const type = v.type ?? 'string';
  if (type !== 'timestamp' && type !== 'string') throw invalid(`${where}.type`, 'must be "timestamp" or "string"');
  return {
    type,
    format: text(v.format, `${where}.format`, PIVOT_LIMITS.option, { nullable: true }),
    placeholder: text(v.placeholder, `${where}.placeholder`, PIVOT_LIMITS.placeholder, { nullable: true }),
  };
}

function options(v: unknown, where: string): PivotCommandOptions {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) throw invalid(where, 'must be an object');
  const o: PivotCommandOptions = {};
  if (v.variable != null) o.variable = text(v.variable, `${where}.variable`, PIVOT_LIMITS.option)!;
  if (v.modal != null) o.modal = flag(v.modal, `${where}.modal`, false);
  if (v.modalWidth != null) o.modalWidth = text(v.modalWidth, `${where}.modalWidth`, PIVOT_LIMITS.option)!;
  if (v.noValueUrlEncode != null) o.noValueUrlEncode = flag(v.noValueUrlEncode, `${where}.noValueUrlEncode`, false);
  return o;
}

function command(v: unknown, where: string): PivotCommand {
  if (!isRecord(v)) throw invalid(where, 'must be an object');
  const type = v.type as CommandType;
  if (!COMMAND_TYPES.includes(type)) throw invalid(`${where}.type`, `must be one of ${COMMAND_TYPES.join(', ')}`);
  let reference = text(v.reference, `${where}.reference`, PIVOT_LIMITS.reference, { required: true })!;
  if (type === 'dashboard' || type === 'template' || type === 'savedQuery') {
    // The contract: actionables refer to dashboards (and the product to templates and saved queries) by GUID.
    if (!isUuid(reference)) throw refusal('PIVOT_REFERENCE_NOT_GUID', `${where}.reference`, type);
    reference = reference.toLowerCase();
  }
  if (type === 'url' && !/^https?:\/\/[^\s/]/i.test(reference)) throw refusal('PIVOT_URL_INVALID', `${where}.reference`);
  return { type, reference, options: options(v.options, `${where}.options`) };
}

function action(v: unknown, i: number): PivotAction {
  const where = `actions[${i}]`;
  if (!isRecord(v)) throw invalid(where, 'must be an object');
  const a: PivotAction = {
    name: text(v.name, `${where}.name`, PIVOT_LIMITS.name, { required: true })!,
    description: text(v.description, `${where}.description`, PIVOT_LIMITS.description, { nullable: true }),
    placeholder: text(v.placeholder, `${where}.placeholder`, PIVOT_LIMITS.placeholder, { nullable: true }),
    command: command(v.command, `${where}.command`),
  };
  if (v.noValueUrlEncode != null) a.noValueUrlEncode = flag(v.noValueUrlEncode, `${where}.noValueUrlEncode`, false);
  const start = timeVariable(v.start, `${where}.start`);
  const end = timeVariable(v.end, `${where}.end`);
  if (start) a.start = start;
  if (end) a.end = end;
  return a;
}

/** `Contents` as stored: checked, with the product's defaults filled in; a 400 naming the first problem. */
export function normalizeContents(value: unknown): PivotContents {
  if (!isRecord(value)) throw refusal('PIVOT_CONTENTS_INVALID', 'Contents', 'must be a JSON object');
  const contents: PivotContents = {
    menuLabel: text(value.menuLabel, 'menuLabel', PIVOT_LIMITS.menuLabel, { nullable: true }),
    actions: list(value.actions, 'actions', PIVOT_LIMITS.actions).map(action),
    triggers: list(value.triggers, 'triggers', PIVOT_LIMITS.triggers).map(trigger),
  };
  if (Buffer.byteLength(JSON.stringify(contents)) > PIVOT_LIMITS.contentsBytes) throw refusal('PIVOT_CONTENTS_TOO_LARGE', PIVOT_LIMITS.contentsBytes);
  return contents;
}
