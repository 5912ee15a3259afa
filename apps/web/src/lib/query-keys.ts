/** The query key of the signed-in candidate's userInfo (the personal center, the form and the photo share it). */
export const USER_INFO_KEY = ['userInfo'] as const;
