package tool

import "github.com/understudy-dev/understudy/internal/session"

// toolClass says what a tool does to its session, and so how its calls
// share the session with the calls in flight beside them (docs/adr/018):
//
//   - classRead reads the page or the session and changes nothing;
//   - classWait watches the page until a condition holds or time runs out;
//   - classAction changes the page (input, navigation, evaluation, dialog
//     answers);
//   - classLifecycle changes the session itself (which surface or window
//     is selected, the relay, detach and stop) or needs no session at all.
//
// Reads and waits share a session with each other and with one action;
// actions run one at a time, in the order they arrived; lifecycle calls run
// alone. Every registered tool is in toolClasses (TestEveryToolClassified).
type toolClass int

const (
	classRead toolClass = iota + 1
	classWait
	classAction
	classLifecycle
)

func (c toolClass) String() string {
	switch c {
	case classRead:
		return "read"
	case classWait:
		return "wait"
	case classAction:
		return "action"
	case classLifecycle:
		return "lifecycle"
	}
	return "unclassified"
}

// admission is how a call of the class enters its session's gate.
func (c toolClass) admission() session.Class {
	switch c {
	case classRead, classWait:
		return session.Shared
	case classAction:
		return session.Ordered
	}
	return session.Exclusive // lifecycle, and anything unclassified
}

// toolClasses is the one table of every tool's class.
var toolClasses = map[string]toolClass{
	// Lifecycle: sessions and what is selected in them.
	"electron_launch":           classLifecycle,
	"electron_attach":           classLifecycle,
	"electron_detach":           classLifecycle,
	"electron_stop":             classLifecycle,
	"electron_force_kill":       classLifecycle,
	"electron_discover_running": classLifecycle,
	"electron_status":           classLifecycle,
	"electron_doctor":           classLifecycle,
	"electron_plugins":          classLifecycle,
	"electron_switch_surface":   classLifecycle,
	"electron_switch_window":    classLifecycle,
	"electron_relay_endpoint":   classLifecycle,
	"electron_inject":           classLifecycle,

	// Reads.
	"electron_info":               classRead,
	"electron_console_logs":       classRead,
	"electron_snapshot":           classRead,
	"electron_find":               classRead,
	"electron_elements_list":      classRead,
	"electron_exists":             classRead,
	"electron_get_text":           classRead,
	"electron_get_value":          classRead,
	"electron_get_attribute":      classRead,
	"electron_get_state":          classRead,
	"electron_get_bbox":           classRead,
	"electron_get_computed_style": classRead,
	"electron_focused_element":    classRead,
	"electron_screenshot":         classRead,
	"electron_surfaces_list":      classRead,
	"electron_windows_list":       classRead,
	"electron_assert_pattern":     classRead,

	// Waits.
	"electron_wait":              classWait,
	"electron_wait_for_selector": classWait,
	"electron_wait_for_state":    classWait,
	"electron_wait_for_event":    classWait,
	"electron_expect_text":       classWait,
	"electron_expect_value":      classWait,
	"electron_expect_visible":    classWait,
	"electron_expect_state":      classWait,
	"electron_expect_count":      classWait,
	"electron_expect_url":        classWait,

	// Actions.
	"electron_click":            classAction,
	"electron_hover":            classAction,
	"electron_type":             classAction,
	"electron_keyboard_type":    classAction,
	"electron_type_into_editor": classAction,
	"electron_key":              classAction,
	"electron_press_sequence":   classAction,
	"electron_clear_input":      classAction,
	"electron_check":            classAction,
	"electron_uncheck":          classAction,
	"electron_select_option":    classAction,
	"electron_set_files":        classAction,
	"electron_drop_file":        classAction,
	"electron_drag":             classAction,
	"electron_scroll":           classAction,
	"electron_scroll_into_view": classAction,
	"electron_navigate":         classAction,
	"electron_eval_main":        classAction,
	"electron_eval_renderer":    classAction,
	"electron_dialog_handler":   classAction,
	"storage_cookies":           classRead,
	"storage_set_cookie":        classAction,
	"storage_clear_cookies":     classAction,
	"storage_snapshot":          classRead,
	"storage_local_get":         classRead,
	"storage_session_get":       classRead,
	"storage_local_set":         classAction,
	"storage_session_set":       classAction,
	"storage_local_remove":      classAction,
	"storage_session_remove":    classAction,
	"storage_local_keys":        classRead,
	"storage_session_keys":      classRead,
	"storage_local_clear":       classAction,
	"storage_session_clear":     classAction,
	"storage_idb_schema":        classRead,
	"storage_idb_get":           classRead,
	"storage_idb_count":         classRead,
	"storage_idb_set":           classAction,
	"storage_idb_delete":        classAction,
	"storage_idb_clear":         classAction,
	"storage_state_export":      classAction,
	"storage_state_import":      classAction,
	"clock_install":             classAction,
	"clock_set_time":            classAction,
	"clock_set_system_time":     classAction,
	"clock_advance":             classAction,
	"clock_run_for":             classAction,
	"clock_pause":               classAction,
	"clock_resume":              classAction,
	"clock_status":              classRead,
	"emulation_set":             classAction,
	"emulation_reset":           classAction,
	"electron_window_open":      classAction,
	"electron_window_close":     classAction,
	"electron_go_back":          classAction,
	"electron_go_forward":       classAction,
	"electron_reload":           classAction,
	"network_capture_start":     classAction,
	"network_captured":          classRead,
	"network_capture_stop":      classAction,
	"network_stub":              classAction,
	"network_unstub":            classAction,
	"network_export_har":        classAction,
	"network_replay_har":        classAction,
	"network_conditions":        classAction,
	"trace_start":               classLifecycle,
	"trace_stop":                classLifecycle,
	"trace_status":              classLifecycle,
	"trace_tokens":              classLifecycle,
	"trace_budget":              classLifecycle,
	"trace_view":                classLifecycle,
	"trace_export_playwright":   classLifecycle,
	"trace_promote":             classLifecycle,
	"trace_replay":              classLifecycle,
	"a11y_audit":                classAction, // axe.run cannot run twice at once in a document
	"visual_capture":            classAction,
	"visual_expect":             classRead,
	"visual_update_baseline":    classAction,
	"production_validate":       classLifecycle,
	"ipc_invoke":                classAction,
	"native_menu":               classRead,
	"native_menu_item":          classRead,
	"native_menu_invoke":        classAction,

	"ipc_capture_start":          classAction,
	"ipc_captured":               classRead,
	"ipc_capture_stop":           classAction,
	"ipc_stub":                   classAction,
	"native_notifications_start": classAction,
	"native_notifications":       classRead,
	"native_notifications_stop":  classAction,
	"native_trays":               classAction,
	"native_tray_invoke":         classAction,
}

// classOf is the tool's class; a tool missing from the table is treated as
// lifecycle (alone), the safe side.
func classOf(name string) toolClass {
	if c, ok := toolClasses[name]; ok {
		return c
	}
	return classLifecycle
}
