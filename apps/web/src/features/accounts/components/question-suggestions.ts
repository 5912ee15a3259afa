/** Questions offered at registration and in the personal center; any other may be typed. */
export const QUESTION_SUGGESTIONS = [
  '我的小学校名？',
  '我母亲的姓名？',
  '我父亲的姓名？',
  '我的出生地？',
  '我最喜欢的老师？',
  '我的初中班主任姓名？',
];
