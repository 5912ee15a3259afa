import { CheckCircleOutlined, CloudUploadOutlined, WarningOutlined } from '@ant-design/icons';
import type { SaveState } from '../autosave';

export function SaveIndicator({ state }: { state: SaveState }) {
  if (state.kind === 'saving')
    return (
      <span className="save-indicator" role="status">
        <CloudUploadOutlined aria-hidden /> 正在保存…
      </span>
    );
  if (state.kind === 'saved')
    return (
      <span className="save-indicator is-saved" role="status">
        <CheckCircleOutlined aria-hidden /> 已自动保存 {state.at.toLocaleTimeString('zh-CN', { hour12: false })}
      </span>
    );
  if (state.kind === 'error')
    return (
      <span className="save-indicator is-error" role="status">
        <WarningOutlined aria-hidden /> 保存失败，正在重试…
      </span>
    );
  return (
    <span className="save-indicator" role="status">
      填写内容将自动保存
    </span>
  );
}
