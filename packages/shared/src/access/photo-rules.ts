/**
 * The ID photo's rules (issue 33): the texts the candidate sees before choosing a file, the
 * server's refusals (apps/server/src/modules/access/accounts/photo-rules.ts measures them), and
 * the rejection reasons the console offers: one text per rule, the same everywhere.
 */
export const PHOTO_RULE_TEXT = {
  background: '照片背景须为白色、浅蓝或浅灰的纯色背景',
  blurred: '照片模糊，请重新拍摄',
  dark: '照片过暗，请在光线充足处重新拍摄',
  bright: '照片过亮（曝光过度），请避开强光后重新拍摄',
  proportion: '照片须为竖版证件照比例（宽:高约 3:4 至 5:7），请裁剪后重新上传',
} as const;
export type PhotoRule = keyof typeof PHOTO_RULE_TEXT;

/** The background colours an exam may require (checked at submit). */
export const PHOTO_BACKGROUNDS = ['white', 'blue', 'red'] as const;
export type PhotoBackground = (typeof PHOTO_BACKGROUNDS)[number];
export const PHOTO_BACKGROUND_LABEL: Readonly<Record<PhotoBackground, string>> = { white: '白色', blue: '蓝色', red: '红色' };
export const photoBackgroundRequiredText = (b: PhotoBackground): string =>
  `本考试要求${PHOTO_BACKGROUND_LABEL[b]}背景的证件照，您的照片背景不符合，请更换照片后再提交`;
