import { z } from 'zod';

/** The spec's userInfo (§3). birthday and sex are derived from idno. */
export const userInfoSchema = z.object({
  id: z.number().int(),
  idno: z.string(),
  name: z.string(),
  photo: z.string(),
  mobile: z.string(),
  email: z.string(),
  question: z.string(),
  answer: z.string(),
  birthday: z.string(),
  sex: z.enum(['男', '女', '']),
});
export type UserInfo = z.infer<typeof userInfoSchema>;
