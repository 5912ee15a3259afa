/**
 * The error catalogue. `CLIENT_ERROR_TEXT` is the specification's catalogue, word for word: what the browser
 * shows. `ErrorCode` and `ERROR_TEXT` are the server's business and validation failures; each
 * text tells the user what to do.
 */

export const CLIENT_ERROR_TEXT = {
  unauthorized: '未授权，请重新登录',
  requestFailed: (msg: string) => `请求失败: ${msg}`,
  timeout: '请求超时',
  network: '网络异常',
  unknown: '未知错误',
} as const;

export const HTTP_STATUS_TEXT: Readonly<Record<number, string>> = {
  400: '请求错误',
  403: '拒绝访问',
  404: '请求地址出错',
  408: '请求超时',
  500: '服务器内部错误',
  501: '服务未实现',
  502: '网关错误',
  503: '服务不可用',
  504: '网关超时',
  505: 'HTTP版本不受支持',
};

export const ErrorCode = {
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Validation: 1001,
  /** Someone else changed it first (another tab or device): shown the newer version, try again. */
  Conflict: 1009,
  UnknownOffice: 1002,
  /** The office is paused by the platform (暂停服务): answered with HTTP 503 to every call. */
  OfficeSuspended: 1503,
  CaptchaInvalid: 1003,
  TooManyRequests: 1029,
  Internal: 1500,
  IdnoRegistered: 2001,
  LoginFailed: 2002,
  ResetFailed: 2003,
  WrongPassword: 2004,
  PhotoInvalid: 2005,
  /** A sign-in with a one-time password: every call but the password change waits for a new one. */
  PasswordChangeRequired: 2006,
  /** The password was right and the person has a second factor: sign-in asks for its code. */
  SecondFactorRequired: 2021,
  /** A wrong, reused or expired dynamic code, or an unknown or used recovery code. */
  SecondFactorInvalid: 2022,
  /** This person must enroll a second factor before anything else (production admins, or the office's rule). */
  SecondFactorEnrollmentRequired: 2023,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_TEXT: Readonly<Record<ErrorCode, string>> = {
  [ErrorCode.Unauthorized]: '登录已失效，请重新登录',
  [ErrorCode.Forbidden]: '没有权限执行此操作',
  [ErrorCode.NotFound]: '请求的内容不存在或已删除',
  [ErrorCode.Validation]: '提交的信息有误，请检查后重试',
  [ErrorCode.Conflict]: '内容已在其他页面或设备上修改，请刷新后再试',
  [ErrorCode.UnknownOffice]: '未找到该考试机构，请检查访问链接是否正确',
  [ErrorCode.OfficeSuspended]: '该考试机构暂停服务，暂时无法登录或办理业务；已提交的信息均完整保留',
  [ErrorCode.CaptchaInvalid]: '验证码错误或已过期，请刷新后重新输入',
  [ErrorCode.TooManyRequests]: '操作过于频繁，请稍后再试',
  [ErrorCode.Internal]: '系统繁忙，请稍后再试',
  [ErrorCode.IdnoRegistered]: '该身份证号码已注册，请直接登录；忘记密码可通过密保找回',
  [ErrorCode.LoginFailed]: '身份证号码或密码错误',
  [ErrorCode.ResetFailed]: '身份证号码或提示答案不正确，无法重置密码',
  [ErrorCode.WrongPassword]: '原密码不正确',
  [ErrorCode.PhotoInvalid]: '照片不符合要求，请上传 JPG 或 PNG 格式的证件照',
  [ErrorCode.PasswordChangeRequired]: '当前使用的是初始密码，请先修改密码后再继续操作',
  [ErrorCode.SecondFactorRequired]: '该账号已开启两步验证，请输入验证器 App 中的 6 位动态验证码，或使用一个恢复码',
  [ErrorCode.SecondFactorInvalid]: '动态验证码或恢复码不正确（每个动态验证码只能使用一次），请重新输入',
  [ErrorCode.SecondFactorEnrollmentRequired]: '请先开启两步验证（用验证器 App 扫码绑定）后再继续操作',
};

/** A paused office's answer, with its name: its API's refusal and its site's 暂停服务 page. */
export const officeSuspendedText = (officeName: string): string =>
  `${officeName}暂停服务，暂时无法登录或办理业务；已提交的信息均完整保留，恢复服务后可继续办理`;

/**
 * What the user is told when a thing looked up is not there: one text per noun, the same from
 * every service that looks it up (answered with ErrorCode.NotFound through the server's
 * `notFound(thing)`; apps/server/test/messages.test.ts fails on a text written inline instead).
 * A candidate is not shown what staff have not published yet: `publishedExam`, `publishedNotice`.
 */
export const NOT_FOUND_TEXT = {
  exam: '该考试不存在或已删除，请刷新后再试',
  publishedExam: '该考试不存在或尚未发布',
  position: '该岗位不存在或已删除，请刷新后再试',
  application: '该报名不存在或已删除，请刷新后再试',
  notice: '该公告不存在或已删除，请刷新后再试',
  publishedNotice: '该公告不存在或已撤下',
  subject: '该科目不存在或已删除，请刷新后再试',
  site: '该考点不存在或已删除，请刷新后再试',
  room: '该考场不存在或已删除，请刷新后再试',
  order: '该订单不存在，请刷新后再试',
  feeWaiver: '该减免申请不存在或已删除，请刷新后再试',
  staff: '该人员不存在或已删除，请刷新后再试',
  office: '该考试机构不存在，请刷新后再试',
  appeal: '该申诉不存在，请刷新后再试',
  attachment: '该附件不存在或已删除，请刷新后再试',
  message: '该消息不存在或已删除，请刷新后再试',
  sms: '该短信不存在，请刷新后再试',
  scoreReview: '该成绩复核申请不存在，请刷新后再试',
  /** A provider's notify about a face check that is not ours (or a forged one). */
  faceCheck: '该人脸核验不存在或已过期',
  /** The candidate's own things at an exam, with why there may be none. */
  ownApplication: '您尚未报名该考试',
  ownTicket: '您在该考试没有准考证（仅确认报名的考生有准考证）',
  ownScore: '未查到您在该考试的成绩（仅参加笔试的考生有成绩）',
  scoreOfTicketNo: '未找到该准考证号的成绩，请核对准考证号',
} as const;
export type MissingThing = keyof typeof NOT_FOUND_TEXT;
