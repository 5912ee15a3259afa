/** Constants from the product specification: exact values, checked by the conformance tests. */

import type { MenuItem } from './platform/system';

export const DEFAULT_SITE_NAME = '智考云系统';
export const DEFAULT_SITE_NAME_EN = 'zhikaoyun exam system';

/** API timeout, in milliseconds . */
export const API_TIMEOUT_MS = 15_000;

/** Session store key . */
export const SYS_STORE_KEY = 'sysStore';

/** Hint-answer mask on the user info card (6 dots). */
export const HINT_ANSWER_MASK = '••••••';

/** Product-and-version prefix carried by every browser storage key. */
export const STORAGE_PREFIX = 'zhikaoyun-v1-';

export const THEME = {
  colorPrimary: '#006CFF',
  colorPrimaryHover: '#0056CC',
  colorPrimaryActive: '#004499',
  colorSupplementary: '#E6F0FF',
  borderRadius: 6,
  borderRadiusLarge: 10,
} as const;

export const MESSAGE_CONFIG = {
  durationMs: 3000,
  minWidth: 420,
  maxWidth: 720,
  zIndex: 6000,
  placement: 'top',
} as const;

export const NOTIFICATION_CONFIG = {
  width: 365,
  zIndex: 4000,
  placement: 'topRight',
} as const;

export const DIALOG_WIDTH = 446;

/** Container card max width (about 80%). */
export const CONTAINER_MAX_WIDTH = '80%';

/** The office a request that names none is served by, in the demo seed. */
export const DEFAULT_OFFICE_CODE = 'demo';

/** Largest page a list call returns, whatever the client asks. */
export const MAX_PAGE_SIZE = 50;
export const DEFAULT_PAGE_SIZE = 10;

/** The bottom navigation an office gets until it sets its own. */
export const DEFAULT_MENU: MenuItem[] = [
  { key: 'home', title: '首页', path: '/exam-list', icon: 'home' },
  { key: 'positions', title: '岗位', path: '/job-positions', icon: 'positions' },
  { key: 'notices', title: '公告', path: '/notice-list', icon: 'notices' },
  { key: 'me', title: '我的', path: '/personal-center', icon: 'me' },
];

/**
 * The ID photo the office asks for: a portrait 一寸 photo, 295×413 pixels at 300 dpi, light
 * background. The browser crops a chosen picture to this ratio and scales it down before upload.
 * (Here, without zod: the personal center shows them on its first load.)
 */
export const PHOTO_SPEC = { width: 295, height: 413 } as const;
export const PHOTO_RULES: readonly string[] = [
  // Issue 33: the rules uploadPhoto checks (access/photo-rules.ts), said before a file is chosen.
  '近期免冠正面证件照，白色、浅蓝或浅灰的纯色背景，身后不要有其他物品',
  '光线均匀、五官清晰：过暗、过曝或模糊的照片上传时会被退回',
  `竖版一寸照，${PHOTO_SPEC.width}×${PHOTO_SPEC.height} 像素比例，可在下方拖动调整裁剪位置`,
  '支持 JPG、PNG 及 iPhone 的 HEIC 照片；手机拍摄的大照片会自动压缩后上传',
];
