import { UserOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';

/** The candidate's photo, or a placeholder labelled 头像 when there is none. */
export function UserAvatar({ photo, size = 72 }: { photo?: string; size?: number }) {
  if (photo) return <Avatar src={<img src={photo} alt="头像" />} size={size} shape="square" className="user-avatar" />;
  return (
    <div className="user-avatar-placeholder" style={{ width: size, height: size * 1.3 }} role="img" aria-label="头像">
      <UserOutlined aria-hidden />
      <span>头像</span>
    </div>
  );
}
