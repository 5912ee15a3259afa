import { useQuery } from '@tanstack/react-query';
import { fetchMyApplications } from './applications';
import { applicationKeys } from './keys';

export function useMyApplications(enabled = true) {
  return useQuery({ queryKey: applicationKeys.mine(), queryFn: fetchMyApplications, enabled, staleTime: 0 });
}
