import { FACE_LABEL, REAL_NAME_LABEL, type IdentityStatus } from '@zhikaoyun/shared';
import { Space, Tag } from 'antd';

const COLOR = { passed: 'success', pending: 'processing', failed: 'error', none: 'default' } as const;

/** An application's identity checks (issue 33): the real-name check, and the face check when there is one. */
export function IdentityTags({ identity }: { identity: IdentityStatus | undefined }) {
  if (!identity) return null;
  return (
    <Space size={4} wrap>
      <Tag color={COLOR[identity.realName]}>{REAL_NAME_LABEL[identity.realName]}</Tag>
      {identity.face !== 'none' && <Tag color={COLOR[identity.face]}>{FACE_LABEL[identity.face]}</Tag>}
    </Space>
  );
}
