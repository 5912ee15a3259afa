import { z } from 'zod';

/**
 * The spec's userInfo. birthday and sex are derived from idno. `answer` is the hint answer's
 * mask, never the answer: `HINT_ANSWER_MASK` (6 dots) when one is set, '' when none. The answer
 * itself is a password-reset credential and is shown only after the password is entered again
 * (`POST /api/revealHintAnswer`), so a borrowed session or a look at session storage never
 * yields it.
 */
export const userInfoSchema = z.object({
  id: z.number().int(),
  idno: z.string(),
  name: z.string(),
  photo: z.string(),
  mobile: z.string(),
  email: z.string(),
  question: z.string(),
  answer: z.string().describe('提示答案的掩码：已设置时为 6 个圆点，未设置时为空'),
  birthday: z.string(),
  sex: z.enum(['男', '女', '']),
});
export type UserInfo = z.infer<typeof userInfoSchema>;
