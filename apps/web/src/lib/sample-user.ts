import type { UserInfo } from '@zhikaoyun/shared';

/** A made-up candidate (a valid test ID number), for the UI test page and the tests. */
export const SAMPLE_USER: UserInfo = {
  id: 0,
  idno: '11010519491231002X',
  name: '示例考生',
  photo: '',
  mobile: '',
  email: '',
  question: '我的小学校名？',
  answer: '实验小学',
  birthday: '1949-12-31',
  sex: '女',
};
