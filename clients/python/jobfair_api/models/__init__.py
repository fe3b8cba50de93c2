"""Contains all the data models used in inputs/outputs"""

from .billing_charge import BillingCharge
from .billing_charge_charge import BillingChargeCharge
from .billing_charge_input import BillingChargeInput
from .billing_charge_input_charge import BillingChargeInputCharge
from .billing_checkout import BillingCheckout
from .billing_checkout_input import BillingCheckoutInput
from .billing_checkout_input_interval import BillingCheckoutInputInterval
from .billing_checkout_input_mode import BillingCheckoutInputMode
from .billing_checkout_input_plan import BillingCheckoutInputPlan
from .billing_checkout_interval import BillingCheckoutInterval
from .billing_checkout_mode import BillingCheckoutMode
from .billing_checkout_plan import BillingCheckoutPlan
from .billing_invoice import BillingInvoice
from .billing_invoice_input import BillingInvoiceInput
from .billing_invoice_input_interval_type_0 import BillingInvoiceInputIntervalType0
from .billing_invoice_input_plan_type_0 import BillingInvoiceInputPlanType0
from .billing_invoice_input_status import BillingInvoiceInputStatus
from .billing_invoice_interval_type_0 import BillingInvoiceIntervalType0
from .billing_invoice_plan_type_0 import BillingInvoicePlanType0
from .billing_invoice_status import BillingInvoiceStatus
from .billing_plan import BillingPlan
from .billing_plan_id import BillingPlanId
from .billing_plan_input import BillingPlanInput
from .billing_plan_input_id import BillingPlanInputId
from .billing_plan_input_limits import BillingPlanInputLimits
from .billing_plan_input_prices import BillingPlanInputPrices
from .billing_plan_limits import BillingPlanLimits
from .billing_plan_prices import BillingPlanPrices
from .billing_status import BillingStatus
from .billing_status_input import BillingStatusInput
from .billing_status_input_interval_type_0 import BillingStatusInputIntervalType0
from .billing_status_input_limits import BillingStatusInputLimits
from .billing_status_input_off_session_consent_type_0 import (
    BillingStatusInputOffSessionConsentType0,
)
from .billing_status_input_pending_authentication_type_0 import (
    BillingStatusInputPendingAuthenticationType0,
)
from .billing_status_input_pending_authentication_type_0_interval import (
    BillingStatusInputPendingAuthenticationType0Interval,
)
from .billing_status_input_pending_authentication_type_0_target_plan import (
    BillingStatusInputPendingAuthenticationType0TargetPlan,
)
from .billing_status_input_plan import BillingStatusInputPlan
from .billing_status_input_provider import BillingStatusInputProvider
from .billing_status_input_status import BillingStatusInputStatus
from .billing_status_interval_type_0 import BillingStatusIntervalType0
from .billing_status_limits import BillingStatusLimits
from .billing_status_off_session_consent_type_0 import (
    BillingStatusOffSessionConsentType0,
)
from .billing_status_pending_authentication_type_0 import (
    BillingStatusPendingAuthenticationType0,
)
from .billing_status_pending_authentication_type_0_interval import (
    BillingStatusPendingAuthenticationType0Interval,
)
from .billing_status_pending_authentication_type_0_target_plan import (
    BillingStatusPendingAuthenticationType0TargetPlan,
)
from .billing_status_plan import BillingStatusPlan
from .billing_status_provider import BillingStatusProvider
from .billing_status_status import BillingStatusStatus
from .cancel_billing_plan_response_200 import CancelBillingPlanResponse200
from .candidate import Candidate
from .candidate_input import CandidateInput
from .candidate_match import CandidateMatch
from .candidate_match_input import CandidateMatchInput
from .candidate_note import CandidateNote
from .candidate_note_input import CandidateNoteInput
from .candidate_note_put import CandidateNotePut
from .candidate_note_put_input import CandidateNotePutInput
from .changelog_api_event import ChangelogApiEvent
from .changelog_api_event_data import ChangelogApiEventData
from .changelog_api_event_data_kind import ChangelogApiEventDataKind
from .changelog_entry import ChangelogEntry
from .changelog_entry_input import ChangelogEntryInput
from .changelog_entry_input_kind import ChangelogEntryInputKind
from .changelog_entry_kind import ChangelogEntryKind
from .charge_billing_off_session_body import ChargeBillingOffSessionBody
from .charge_billing_off_session_body_interval import (
    ChargeBillingOffSessionBodyInterval,
)
from .charge_billing_off_session_body_target_plan import (
    ChargeBillingOffSessionBodyTargetPlan,
)
from .close_team_job_response_200 import CloseTeamJobResponse200
from .create_billing_checkout_body import CreateBillingCheckoutBody
from .create_billing_checkout_body_interval import CreateBillingCheckoutBodyInterval
from .create_billing_checkout_body_mode import CreateBillingCheckoutBodyMode
from .create_billing_checkout_body_plan import CreateBillingCheckoutBodyPlan
from .create_job_comparison_response_200 import CreateJobComparisonResponse200
from .create_job_response_201 import CreateJobResponse201
from .create_live_event_response_201 import CreateLiveEventResponse201
from .create_team_invite_response_201 import CreateTeamInviteResponse201
from .create_webhook_body import CreateWebhookBody
from .create_webhook_body_events_item import CreateWebhookBodyEventsItem
from .decline_match_body import DeclineMatchBody
from .decline_match_body_reason_code import DeclineMatchBodyReasonCode
from .decline_match_response_200 import DeclineMatchResponse200
from .delete_webhook_response_200 import DeleteWebhookResponse200
from .end_event_response_200 import EndEventResponse200
from .error import Error
from .error_details import ErrorDetails
from .error_input import ErrorInput
from .error_input_details import ErrorInputDetails
from .get_api_changelog_response_200 import GetApiChangelogResponse200
from .get_billing_status_response_200 import GetBillingStatusResponse200
from .get_candidate_response_200 import GetCandidateResponse200
from .get_event_matching_settings_response_200 import (
    GetEventMatchingSettingsResponse200,
)
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .get_profile_response_200 import GetProfileResponse200
from .get_public_event_response_200 import GetPublicEventResponse200
from .get_queue_status_response_200 import GetQueueStatusResponse200
from .get_settings_response_200 import GetSettingsResponse200
from .get_team_job_response_200 import GetTeamJobResponse200
from .get_team_live_event_response_200 import GetTeamLiveEventResponse200
from .go_live_event_response_200 import GoLiveEventResponse200
from .interview_completed_event import InterviewCompletedEvent
from .interview_completed_event_data import InterviewCompletedEventData
from .interview_completed_event_data_ended_by import InterviewCompletedEventDataEndedBy
from .interview_room_url import InterviewRoomUrl
from .interview_room_url_input import InterviewRoomUrlInput
from .job import Job
from .job_comparison import JobComparison
from .job_comparison_input import JobComparisonInput
from .job_comparison_input_provider import JobComparisonInputProvider
from .job_comparison_provider import JobComparisonProvider
from .job_create import JobCreate
from .job_create_input import JobCreateInput
from .job_create_input_remote_preference_type_0 import (
    JobCreateInputRemotePreferenceType0,
)
from .job_create_remote_preference_type_0 import JobCreateRemotePreferenceType0
from .job_input import JobInput
from .job_input_remote_preference_type_0 import JobInputRemotePreferenceType0
from .job_remote_preference_type_0 import JobRemotePreferenceType0
from .job_search_hit import JobSearchHit
from .job_search_hit_input import JobSearchHitInput
from .job_search_hit_input_remote_preference_type_0 import (
    JobSearchHitInputRemotePreferenceType0,
)
from .job_search_hit_remote_preference_type_0 import JobSearchHitRemotePreferenceType0
from .job_update import JobUpdate
from .job_update_input import JobUpdateInput
from .job_update_input_remote_preference_type_0 import (
    JobUpdateInputRemotePreferenceType0,
)
from .job_update_remote_preference_type_0 import JobUpdateRemotePreferenceType0
from .join_queue_body_type_0 import JoinQueueBodyType0
from .leave_queue_response_200 import LeaveQueueResponse200
from .list_billing_invoices_response_200 import ListBillingInvoicesResponse200
from .list_billing_plans_response_200 import ListBillingPlansResponse200
from .list_billing_plans_response_200_intervals_item import (
    ListBillingPlansResponse200IntervalsItem,
)
from .list_candidates_response_200 import ListCandidatesResponse200
from .list_live_now_events_response_200 import ListLiveNowEventsResponse200
from .list_matches_response_200 import ListMatchesResponse200
from .list_public_live_events_response_200 import ListPublicLiveEventsResponse200
from .list_team_invites_response_200 import ListTeamInvitesResponse200
from .list_team_jobs_response_200 import ListTeamJobsResponse200
from .list_team_jobs_status import ListTeamJobsStatus
from .list_team_live_events_response_200 import ListTeamLiveEventsResponse200
from .list_team_live_events_status import ListTeamLiveEventsStatus
from .list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from .list_webhooks_response_200 import ListWebhooksResponse200
from .live_event import LiveEvent
from .live_event_create import LiveEventCreate
from .live_event_create_input import LiveEventCreateInput
from .live_event_create_input_visibility import LiveEventCreateInputVisibility
from .live_event_create_visibility import LiveEventCreateVisibility
from .live_event_input import LiveEventInput
from .live_event_input_status import LiveEventInputStatus
from .live_event_status import LiveEventStatus
from .live_event_update import LiveEventUpdate
from .live_event_update_input import LiveEventUpdateInput
from .live_event_update_input_visibility import LiveEventUpdateInputVisibility
from .live_event_update_visibility import LiveEventUpdateVisibility
from .match import Match
from .match_accepted_event import MatchAcceptedEvent
from .match_accepted_event_data import MatchAcceptedEventData
from .match_decline_reason_code_type_0 import MatchDeclineReasonCodeType0
from .match_declined_by_role_type_0 import MatchDeclinedByRoleType0
from .match_input import MatchInput
from .match_input_decline_reason_code_type_0 import MatchInputDeclineReasonCodeType0
from .match_input_declined_by_role_type_0 import MatchInputDeclinedByRoleType0
from .match_input_no_show_missing_type_0 import MatchInputNoShowMissingType0
from .match_input_role_type_0 import MatchInputRoleType0
from .match_input_score_breakdown_type_0 import MatchInputScoreBreakdownType0
from .match_input_status import MatchInputStatus
from .match_matched_event import MatchMatchedEvent
from .match_matched_event_data import MatchMatchedEventData
from .match_no_show_event import MatchNoShowEvent
from .match_no_show_event_data import MatchNoShowEventData
from .match_no_show_event_data_missing import MatchNoShowEventDataMissing
from .match_no_show_missing_type_0 import MatchNoShowMissingType0
from .match_outlook_input_type_0 import MatchOutlookInputType0
from .match_outlook_input_type_0_blocked_by_type_0 import (
    MatchOutlookInputType0BlockedByType0,
)
from .match_outlook_input_type_0_state import MatchOutlookInputType0State
from .match_outlook_type_0 import MatchOutlookType0
from .match_outlook_type_0_blocked_by_type_0 import MatchOutlookType0BlockedByType0
from .match_outlook_type_0_state import MatchOutlookType0State
from .match_role_type_0 import MatchRoleType0
from .match_score_breakdown_type_0 import MatchScoreBreakdownType0
from .match_status import MatchStatus
from .matching_settings import MatchingSettings
from .matching_settings_brackets_item import MatchingSettingsBracketsItem
from .matching_settings_floors_item import MatchingSettingsFloorsItem
from .matching_settings_input import MatchingSettingsInput
from .matching_settings_input_brackets_item import MatchingSettingsInputBracketsItem
from .matching_settings_input_floors_item import MatchingSettingsInputFloorsItem
from .pause_event_response_200 import PauseEventResponse200
from .profile import Profile
from .profile_input import ProfileInput
from .profile_input_remote_preference_type_0 import ProfileInputRemotePreferenceType0
from .profile_patch import ProfilePatch
from .profile_patch_input import ProfilePatchInput
from .profile_patch_input_remote_preference_type_0 import (
    ProfilePatchInputRemotePreferenceType0,
)
from .profile_patch_remote_preference_type_0 import ProfilePatchRemotePreferenceType0
from .profile_remote_preference_type_0 import ProfileRemotePreferenceType0
from .put_candidate_note_response_200 import PutCandidateNoteResponse200
from .queue_entry import QueueEntry
from .queue_entry_input import QueueEntryInput
from .queue_entry_input_status import QueueEntryInputStatus
from .queue_entry_status import QueueEntryStatus
from .queue_join_response import QueueJoinResponse
from .queue_join_response_input import QueueJoinResponseInput
from .queue_join_response_input_status import QueueJoinResponseInputStatus
from .queue_join_response_status import QueueJoinResponseStatus
from .recruiter_availability import RecruiterAvailability
from .recruiter_availability_input import RecruiterAvailabilityInput
from .replay_webhook_dead_letters_body import ReplayWebhookDeadLettersBody
from .replay_webhook_dead_letters_response_202 import (
    ReplayWebhookDeadLettersResponse202,
)
from .replay_webhook_dead_letters_response_202_replayed_item import (
    ReplayWebhookDeadLettersResponse202ReplayedItem,
)
from .replay_webhook_delivery_response_202 import ReplayWebhookDeliveryResponse202
from .replay_webhook_delivery_response_202_replayed import (
    ReplayWebhookDeliveryResponse202Replayed,
)
from .resume_event_response_200 import ResumeEventResponse200
from .revoke_team_invite_response_200 import RevokeTeamInviteResponse200
from .rotate_webhook_secret_response_200 import RotateWebhookSecretResponse200
from .rotate_webhook_secret_response_200_owner import (
    RotateWebhookSecretResponse200Owner,
)
from .rotate_webhook_secret_response_200_owner_type import (
    RotateWebhookSecretResponse200OwnerType,
)
from .rotate_webhook_secret_response_200_status import (
    RotateWebhookSecretResponse200Status,
)
from .search_jobs_remote import SearchJobsRemote
from .search_jobs_response_200 import SearchJobsResponse200
from .set_my_availability_body import SetMyAvailabilityBody
from .set_my_availability_response_200 import SetMyAvailabilityResponse200
from .settings import Settings
from .settings_input import SettingsInput
from .settings_input_team_type_0 import SettingsInputTeamType0
from .settings_input_team_type_0_default_event_visibility import (
    SettingsInputTeamType0DefaultEventVisibility,
)
from .settings_input_team_type_0_role import SettingsInputTeamType0Role
from .settings_input_user import SettingsInputUser
from .settings_patch import SettingsPatch
from .settings_patch_input import SettingsPatchInput
from .settings_patch_input_team import SettingsPatchInputTeam
from .settings_patch_input_team_default_event_visibility import (
    SettingsPatchInputTeamDefaultEventVisibility,
)
from .settings_patch_input_user import SettingsPatchInputUser
from .settings_patch_team import SettingsPatchTeam
from .settings_patch_team_default_event_visibility import (
    SettingsPatchTeamDefaultEventVisibility,
)
from .settings_patch_user import SettingsPatchUser
from .settings_team_type_0 import SettingsTeamType0
from .settings_team_type_0_default_event_visibility import (
    SettingsTeamType0DefaultEventVisibility,
)
from .settings_team_type_0_role import SettingsTeamType0Role
from .settings_user import SettingsUser
from .team_invite import TeamInvite
from .team_invite_create import TeamInviteCreate
from .team_invite_create_input import TeamInviteCreateInput
from .team_invite_create_input_role import TeamInviteCreateInputRole
from .team_invite_create_role import TeamInviteCreateRole
from .team_invite_input import TeamInviteInput
from .team_invite_input_role import TeamInviteInputRole
from .team_invite_input_status import TeamInviteInputStatus
from .team_invite_role import TeamInviteRole
from .team_invite_status import TeamInviteStatus
from .team_job import TeamJob
from .team_job_event_status import TeamJobEventStatus
from .team_job_input import TeamJobInput
from .team_job_input_event_status import TeamJobInputEventStatus
from .team_job_input_remote_preference_type_0 import TeamJobInputRemotePreferenceType0
from .team_job_input_status import TeamJobInputStatus
from .team_job_remote_preference_type_0 import TeamJobRemotePreferenceType0
from .team_job_status import TeamJobStatus
from .team_live_event import TeamLiveEvent
from .team_live_event_input import TeamLiveEventInput
from .team_live_event_input_status import TeamLiveEventInputStatus
from .team_live_event_input_visibility import TeamLiveEventInputVisibility
from .team_live_event_status import TeamLiveEventStatus
from .team_live_event_visibility import TeamLiveEventVisibility
from .update_event_matching_settings_body import UpdateEventMatchingSettingsBody
from .update_event_matching_settings_response_200 import (
    UpdateEventMatchingSettingsResponse200,
)
from .update_profile_response_200 import UpdateProfileResponse200
from .update_settings_response_200 import UpdateSettingsResponse200
from .update_team_job_response_200 import UpdateTeamJobResponse200
from .update_team_live_event_response_200 import UpdateTeamLiveEventResponse200
from .update_webhook_body import UpdateWebhookBody
from .update_webhook_body_events_item import UpdateWebhookBodyEventsItem
from .update_webhook_body_status import UpdateWebhookBodyStatus
from .wait_estimate_input_type_0 import WaitEstimateInputType0
from .wait_estimate_type_0 import WaitEstimateType0
from .webhook_delivery_log_entry import WebhookDeliveryLogEntry
from .webhook_delivery_log_entry_input import WebhookDeliveryLogEntryInput
from .webhook_delivery_log_entry_input_outcome import (
    WebhookDeliveryLogEntryInputOutcome,
)
from .webhook_delivery_log_entry_input_state import WebhookDeliveryLogEntryInputState
from .webhook_delivery_log_entry_outcome import WebhookDeliveryLogEntryOutcome
from .webhook_delivery_log_entry_state import WebhookDeliveryLogEntryState
from .webhook_subscription import WebhookSubscription
from .webhook_subscription_created import WebhookSubscriptionCreated
from .webhook_subscription_created_input import WebhookSubscriptionCreatedInput
from .webhook_subscription_created_input_owner import (
    WebhookSubscriptionCreatedInputOwner,
)
from .webhook_subscription_created_input_owner_type import (
    WebhookSubscriptionCreatedInputOwnerType,
)
from .webhook_subscription_created_input_status import (
    WebhookSubscriptionCreatedInputStatus,
)
from .webhook_subscription_created_owner import WebhookSubscriptionCreatedOwner
from .webhook_subscription_created_owner_type import WebhookSubscriptionCreatedOwnerType
from .webhook_subscription_created_status import WebhookSubscriptionCreatedStatus
from .webhook_subscription_input import WebhookSubscriptionInput
from .webhook_subscription_input_owner import WebhookSubscriptionInputOwner
from .webhook_subscription_input_owner_type import WebhookSubscriptionInputOwnerType
from .webhook_subscription_input_status import WebhookSubscriptionInputStatus
from .webhook_subscription_owner import WebhookSubscriptionOwner
from .webhook_subscription_owner_type import WebhookSubscriptionOwnerType
from .webhook_subscription_status import WebhookSubscriptionStatus
from .webhook_test_event import WebhookTestEvent
from .webhook_test_event_data import WebhookTestEventData
from .webhook_test_result import WebhookTestResult
from .webhook_test_result_attempt_type_0 import WebhookTestResultAttemptType0
from .webhook_test_result_event import WebhookTestResultEvent
from .webhook_test_result_event_data import WebhookTestResultEventData
from .webhook_test_result_input import WebhookTestResultInput
from .webhook_test_result_input_attempt_type_0 import WebhookTestResultInputAttemptType0
from .webhook_test_result_input_event import WebhookTestResultInputEvent
from .webhook_test_result_input_event_data import WebhookTestResultInputEventData
from .webhook_test_result_input_state import WebhookTestResultInputState
from .webhook_test_result_state import WebhookTestResultState

__all__ = (
    "BillingCharge",
    "BillingChargeCharge",
    "BillingChargeInput",
    "BillingChargeInputCharge",
    "BillingCheckout",
    "BillingCheckoutInput",
    "BillingCheckoutInputInterval",
    "BillingCheckoutInputMode",
    "BillingCheckoutInputPlan",
    "BillingCheckoutInterval",
    "BillingCheckoutMode",
    "BillingCheckoutPlan",
    "BillingInvoice",
    "BillingInvoiceInput",
    "BillingInvoiceInputIntervalType0",
    "BillingInvoiceInputPlanType0",
    "BillingInvoiceInputStatus",
    "BillingInvoiceIntervalType0",
    "BillingInvoicePlanType0",
    "BillingInvoiceStatus",
    "BillingPlan",
    "BillingPlanId",
    "BillingPlanInput",
    "BillingPlanInputId",
    "BillingPlanInputLimits",
    "BillingPlanInputPrices",
    "BillingPlanLimits",
    "BillingPlanPrices",
    "BillingStatus",
    "BillingStatusInput",
    "BillingStatusInputIntervalType0",
    "BillingStatusInputLimits",
    "BillingStatusInputOffSessionConsentType0",
    "BillingStatusInputPendingAuthenticationType0",
    "BillingStatusInputPendingAuthenticationType0Interval",
    "BillingStatusInputPendingAuthenticationType0TargetPlan",
    "BillingStatusInputPlan",
    "BillingStatusInputProvider",
    "BillingStatusInputStatus",
    "BillingStatusIntervalType0",
    "BillingStatusLimits",
    "BillingStatusOffSessionConsentType0",
    "BillingStatusPendingAuthenticationType0",
    "BillingStatusPendingAuthenticationType0Interval",
    "BillingStatusPendingAuthenticationType0TargetPlan",
    "BillingStatusPlan",
    "BillingStatusProvider",
    "BillingStatusStatus",
    "CancelBillingPlanResponse200",
    "Candidate",
    "CandidateInput",
    "CandidateMatch",
    "CandidateMatchInput",
    "CandidateNote",
    "CandidateNoteInput",
    "CandidateNotePut",
    "CandidateNotePutInput",
    "ChangelogApiEvent",
    "ChangelogApiEventData",
    "ChangelogApiEventDataKind",
    "ChangelogEntry",
    "ChangelogEntryInput",
    "ChangelogEntryInputKind",
    "ChangelogEntryKind",
    "ChargeBillingOffSessionBody",
    "ChargeBillingOffSessionBodyInterval",
    "ChargeBillingOffSessionBodyTargetPlan",
    "CloseTeamJobResponse200",
    "CreateBillingCheckoutBody",
    "CreateBillingCheckoutBodyInterval",
    "CreateBillingCheckoutBodyMode",
    "CreateBillingCheckoutBodyPlan",
    "CreateJobComparisonResponse200",
    "CreateJobResponse201",
    "CreateLiveEventResponse201",
    "CreateTeamInviteResponse201",
    "CreateWebhookBody",
    "CreateWebhookBodyEventsItem",
    "DeclineMatchBody",
    "DeclineMatchBodyReasonCode",
    "DeclineMatchResponse200",
    "DeleteWebhookResponse200",
    "EndEventResponse200",
    "Error",
    "ErrorDetails",
    "ErrorInput",
    "ErrorInputDetails",
    "GetApiChangelogResponse200",
    "GetBillingStatusResponse200",
    "GetCandidateResponse200",
    "GetEventMatchingSettingsResponse200",
    "GetOpenApiDocumentResponse200",
    "GetProfileResponse200",
    "GetPublicEventResponse200",
    "GetQueueStatusResponse200",
    "GetSettingsResponse200",
    "GetTeamJobResponse200",
    "GetTeamLiveEventResponse200",
    "GoLiveEventResponse200",
    "InterviewCompletedEvent",
    "InterviewCompletedEventData",
    "InterviewCompletedEventDataEndedBy",
    "InterviewRoomUrl",
    "InterviewRoomUrlInput",
    "Job",
    "JobComparison",
    "JobComparisonInput",
    "JobComparisonInputProvider",
    "JobComparisonProvider",
    "JobCreate",
    "JobCreateInput",
    "JobCreateInputRemotePreferenceType0",
    "JobCreateRemotePreferenceType0",
    "JobInput",
    "JobInputRemotePreferenceType0",
    "JobRemotePreferenceType0",
    "JobSearchHit",
    "JobSearchHitInput",
    "JobSearchHitInputRemotePreferenceType0",
    "JobSearchHitRemotePreferenceType0",
    "JobUpdate",
    "JobUpdateInput",
    "JobUpdateInputRemotePreferenceType0",
    "JobUpdateRemotePreferenceType0",
    "JoinQueueBodyType0",
    "LeaveQueueResponse200",
    "ListBillingInvoicesResponse200",
    "ListBillingPlansResponse200",
    "ListBillingPlansResponse200IntervalsItem",
    "ListCandidatesResponse200",
    "ListLiveNowEventsResponse200",
    "ListMatchesResponse200",
    "ListPublicLiveEventsResponse200",
    "ListTeamInvitesResponse200",
    "ListTeamJobsResponse200",
    "ListTeamJobsStatus",
    "ListTeamLiveEventsResponse200",
    "ListTeamLiveEventsStatus",
    "ListWebhookDeliveriesResponse200",
    "ListWebhooksResponse200",
    "LiveEvent",
    "LiveEventCreate",
    "LiveEventCreateInput",
    "LiveEventCreateInputVisibility",
    "LiveEventCreateVisibility",
    "LiveEventInput",
    "LiveEventInputStatus",
    "LiveEventStatus",
    "LiveEventUpdate",
    "LiveEventUpdateInput",
    "LiveEventUpdateInputVisibility",
    "LiveEventUpdateVisibility",
    "Match",
    "MatchAcceptedEvent",
    "MatchAcceptedEventData",
    "MatchDeclineReasonCodeType0",
    "MatchDeclinedByRoleType0",
    "MatchInput",
    "MatchInputDeclineReasonCodeType0",
    "MatchInputDeclinedByRoleType0",
    "MatchInputNoShowMissingType0",
    "MatchInputRoleType0",
    "MatchInputScoreBreakdownType0",
    "MatchInputStatus",
    "MatchMatchedEvent",
    "MatchMatchedEventData",
    "MatchNoShowEvent",
    "MatchNoShowEventData",
    "MatchNoShowEventDataMissing",
    "MatchNoShowMissingType0",
    "MatchOutlookInputType0",
    "MatchOutlookInputType0BlockedByType0",
    "MatchOutlookInputType0State",
    "MatchOutlookType0",
    "MatchOutlookType0BlockedByType0",
    "MatchOutlookType0State",
    "MatchRoleType0",
    "MatchScoreBreakdownType0",
    "MatchStatus",
    "MatchingSettings",
    "MatchingSettingsBracketsItem",
    "MatchingSettingsFloorsItem",
    "MatchingSettingsInput",
    "MatchingSettingsInputBracketsItem",
    "MatchingSettingsInputFloorsItem",
    "PauseEventResponse200",
    "Profile",
    "ProfileInput",
    "ProfileInputRemotePreferenceType0",
    "ProfilePatch",
    "ProfilePatchInput",
    "ProfilePatchInputRemotePreferenceType0",
    "ProfilePatchRemotePreferenceType0",
    "ProfileRemotePreferenceType0",
    "PutCandidateNoteResponse200",
    "QueueEntry",
    "QueueEntryInput",
    "QueueEntryInputStatus",
    "QueueEntryStatus",
    "QueueJoinResponse",
    "QueueJoinResponseInput",
    "QueueJoinResponseInputStatus",
    "QueueJoinResponseStatus",
    "RecruiterAvailability",
    "RecruiterAvailabilityInput",
    "ReplayWebhookDeadLettersBody",
    "ReplayWebhookDeadLettersResponse202",
    "ReplayWebhookDeadLettersResponse202ReplayedItem",
    "ReplayWebhookDeliveryResponse202",
    "ReplayWebhookDeliveryResponse202Replayed",
    "ResumeEventResponse200",
    "RevokeTeamInviteResponse200",
    "RotateWebhookSecretResponse200",
    "RotateWebhookSecretResponse200Owner",
    "RotateWebhookSecretResponse200OwnerType",
    "RotateWebhookSecretResponse200Status",
    "SearchJobsRemote",
    "SearchJobsResponse200",
    "SetMyAvailabilityBody",
    "SetMyAvailabilityResponse200",
    "Settings",
    "SettingsInput",
    "SettingsInputTeamType0",
    "SettingsInputTeamType0DefaultEventVisibility",
    "SettingsInputTeamType0Role",
    "SettingsInputUser",
    "SettingsPatch",
    "SettingsPatchInput",
    "SettingsPatchInputTeam",
    "SettingsPatchInputTeamDefaultEventVisibility",
    "SettingsPatchInputUser",
    "SettingsPatchTeam",
    "SettingsPatchTeamDefaultEventVisibility",
    "SettingsPatchUser",
    "SettingsTeamType0",
    "SettingsTeamType0DefaultEventVisibility",
    "SettingsTeamType0Role",
    "SettingsUser",
    "TeamInvite",
    "TeamInviteCreate",
    "TeamInviteCreateInput",
    "TeamInviteCreateInputRole",
    "TeamInviteCreateRole",
    "TeamInviteInput",
    "TeamInviteInputRole",
    "TeamInviteInputStatus",
    "TeamInviteRole",
    "TeamInviteStatus",
    "TeamJob",
    "TeamJobEventStatus",
    "TeamJobInput",
    "TeamJobInputEventStatus",
    "TeamJobInputRemotePreferenceType0",
    "TeamJobInputStatus",
    "TeamJobRemotePreferenceType0",
    "TeamJobStatus",
    "TeamLiveEvent",
    "TeamLiveEventInput",
    "TeamLiveEventInputStatus",
    "TeamLiveEventInputVisibility",
    "TeamLiveEventStatus",
    "TeamLiveEventVisibility",
    "UpdateEventMatchingSettingsBody",
    "UpdateEventMatchingSettingsResponse200",
    "UpdateProfileResponse200",
    "UpdateSettingsResponse200",
    "UpdateTeamJobResponse200",
    "UpdateTeamLiveEventResponse200",
    "UpdateWebhookBody",
    "UpdateWebhookBodyEventsItem",
    "UpdateWebhookBodyStatus",
    "WaitEstimateInputType0",
    "WaitEstimateType0",
    "WebhookDeliveryLogEntry",
    "WebhookDeliveryLogEntryInput",
    "WebhookDeliveryLogEntryInputOutcome",
    "WebhookDeliveryLogEntryInputState",
    "WebhookDeliveryLogEntryOutcome",
    "WebhookDeliveryLogEntryState",
    "WebhookSubscription",
    "WebhookSubscriptionCreated",
    "WebhookSubscriptionCreatedInput",
    "WebhookSubscriptionCreatedInputOwner",
    "WebhookSubscriptionCreatedInputOwnerType",
    "WebhookSubscriptionCreatedInputStatus",
    "WebhookSubscriptionCreatedOwner",
    "WebhookSubscriptionCreatedOwnerType",
    "WebhookSubscriptionCreatedStatus",
    "WebhookSubscriptionInput",
    "WebhookSubscriptionInputOwner",
    "WebhookSubscriptionInputOwnerType",
    "WebhookSubscriptionInputStatus",
    "WebhookSubscriptionOwner",
    "WebhookSubscriptionOwnerType",
    "WebhookSubscriptionStatus",
    "WebhookTestEvent",
    "WebhookTestEventData",
    "WebhookTestResult",
    "WebhookTestResultAttemptType0",
    "WebhookTestResultEvent",
    "WebhookTestResultEventData",
    "WebhookTestResultInput",
    "WebhookTestResultInputAttemptType0",
    "WebhookTestResultInputEvent",
    "WebhookTestResultInputEventData",
    "WebhookTestResultInputState",
    "WebhookTestResultState",
)
