import { CheckCircleOutlined, CloudUploadOutlined, EditOutlined, WarningOutlined } from '@ant-design/icons';
import { formatDateTime } from '../../../../components/format';
import type { SaveState } from '../autosave';

/** Says 已自动保存 only when nothing typed is waiting or being sent: never ahead of the server. */
export function SaveIndicator({ state }: { state: SaveState }) {
  if (state.kind === 'pending')
    return (
      <span className="save-indicator" role="status">
        <EditOutlined aria-hidden /> 有未保存的修改，即将自动保存
      </span>
    );
  if (state.kind === 'saving')
    return (
      <span className="save-indicator" role="status">
        <CloudUploadOutlined aria-hidden /> 正在保存…
      </span>
    );
  if (state.kind === 'saved')
    return (
      <span className="save-indicator is-saved" role="status">
        {/* On the office's clock, as every other time of the site. */}
        <CheckCircleOutlined aria-hidden /> 已自动保存 {formatDateTime(state.at.toISOString()).slice(11)}
      </span>
    );
  if (state.kind === 'error')
    return (
      <span className="save-indicator is-error" role="status">
        <WarningOutlined aria-hidden /> 保存失败，正在重试…
      </span>
    );
  if (state.kind === 'conflict')
    return (
      <span className="save-indicator is-error" role="status">
        <WarningOutlined aria-hidden /> 已显示其他页面或设备上保存的最新内容
      </span>
    );
  return (
    <span className="save-indicator" role="status">
      填写内容将自动保存
    </span>
  );
}
