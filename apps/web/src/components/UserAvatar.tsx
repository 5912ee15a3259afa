import { UserOutlined } from '@ant-design/icons';

/**
 * The candidate's photo, or a placeholder labelled 头像 when there is none. Drawn as antd's square
 * Avatar looks, without antd's runtime (the personal center is built without it).
 */
export function UserAvatar({ photo, size = 72 }: { photo?: string; size?: number }) {
  if (photo)
    return (
      <span className="user-avatar" style={{ width: size, height: size }}>
        <img src={photo} alt="头像" />
      </span>
    );
  return (
    <div className="user-avatar-placeholder" style={{ width: size, height: size * 1.3 }} role="img" aria-label="头像">
      <UserOutlined aria-hidden />
      <span>头像</span>
    </div>
  );
}
