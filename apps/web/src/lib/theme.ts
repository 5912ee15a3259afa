import { MESSAGE_CONFIG, NOTIFICATION_CONFIG, THEME } from '@zhikaoyun/shared';
import type { ThemeConfig } from 'antd';

/** The specification's theme constants as antd's theme: blue primary, 6px base radius, 10px for buttons, modals and cards. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: THEME.colorPrimary,
    // Links use the hover blue: the primary blue falls just under 4.5:1 on the grey page.
    colorLink: THEME.colorPrimaryHover,
    colorLinkHover: THEME.colorPrimaryActive,
    colorLinkActive: THEME.colorPrimaryActive,
    colorInfo: THEME.colorPrimary,
    // antd's default secondary greys fall below WCAG AA contrast on white; these pass it.
    colorTextDescription: '#5c6370',
    colorTextTertiary: '#5c6370',
    colorTextPlaceholder: '#6b7280',
    // antd's error red (#ff4d4f) is 3.3:1 on white: a field's error text must be read (decision 035).
    colorError: '#cf1322',
    // Its derived hover (#db373f) is 4.3:1 on a hovered table row (#fafafa), where a danger link
    // stays hovered while its confirmation is open: hover and press go darker instead, as links do.
    colorErrorHover: '#a8071a',
    colorErrorActive: '#820014',
    borderRadius: THEME.borderRadius,
    borderRadiusLG: THEME.borderRadiusLarge,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Button: {
      borderRadius: THEME.borderRadiusLarge,
      borderRadiusLG: THEME.borderRadiusLarge,
      borderRadiusSM: THEME.borderRadiusLarge,
      colorPrimaryHover: THEME.colorPrimaryHover,
      colorPrimaryActive: THEME.colorPrimaryActive,
    },
    // The selected menu item and tab in the hover blue: the primary on their light backgrounds
    // (#e6f4ff, #f5f5f5) is 4.1:1, under WCAG AA's 4.5:1.
    Menu: { itemSelectedColor: THEME.colorPrimaryHover },
    Tabs: { itemSelectedColor: THEME.colorPrimaryHover, itemActiveColor: THEME.colorPrimaryActive },
    Modal: { borderRadiusLG: THEME.borderRadiusLarge },
    Card: { borderRadiusLG: THEME.borderRadiusLarge },
    Message: { zIndexPopup: MESSAGE_CONFIG.zIndex },
    Notification: { zIndexPopup: NOTIFICATION_CONFIG.zIndex, width: NOTIFICATION_CONFIG.width },
  },
};

export const messageConfig = {
  duration: MESSAGE_CONFIG.durationMs / 1000,
  maxCount: 3,
} as const;

export const notificationConfig = {
  placement: NOTIFICATION_CONFIG.placement,
} as const;
