import { setChineseZodMessages } from '@zhikaoyun/shared';
import type { Rule, RuleObject, RuleRender } from 'antd/es/form';
import type { z } from 'zod';

// Every zod validation in the candidate site goes through this module, so zod's own messages
// switch to Chinese here, when the first page with a form loads, rather than in the entry
// (which would put all of zod on every page's critical path).
setChineseZodMessages();

/**
 * What a shared zod schema says of a field's value (its first issue), undefined when it passes: the
 * browser checks exactly what the server checks. An empty field is fine when the schema allows the
 * field to be left out.
 */
export function zodMessage(schema: z.ZodType, value: unknown): string | undefined {
  const empty = value === undefined || value === null || value === '';
  if (empty && schema.safeParse(undefined).success) return undefined;
  const result = schema.safeParse(value ?? '');
  return result.success ? undefined : (result.error.issues[0]?.message ?? '填写有误');
}

/** An antd form rule from a shared zod schema (zodMessage). */
export function zodRule(schema: z.ZodType): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const message = zodMessage(schema, value);
      if (message !== undefined) throw new Error(message);
    },
  };
}

/** The second password field must repeat the first. */
export function sameAs(field: string, message = '两次输入的密码不一致'): RuleRender {
  return (form): RuleObject => ({
    validator: async (_rule, value: unknown) => {
      if (value !== form.getFieldValue(field)) throw new Error(message);
    },
  });
}

/** The field must not repeat another (a new password its old one). */
export function differsFrom(field: string, message: string): RuleRender {
  return (form): RuleObject => ({
    validator: async (_rule, value: unknown) => {
      if (value && value === form.getFieldValue(field)) throw new Error(message);
    },
  });
}
