package toolcall

import "github.com/toolgate/toolgate/internal/argrules"

// textPaths are the paths one path argument's string names, judged both ways: the string itself,
// as a tool that takes it as it is reads it, and, when it is JSON text of an array of strings,
// each of those, as a tool that decodes it reads them. JSON text of anything else (an object, an
// array holding a number or an array) names what the engine cannot judge as paths, and is refused.
func textPaths(key, s string) ([]string, error) {
	v, ok := argrules.JSONText(s)
	if !ok {
		return []string{s}, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, jsonTextErr(key)
	}
	paths := append(make([]string, 0, 1+len(list)), s)
	for _, one := range list {
		p, isString := one.(string)
		if !isString {
			return nil, jsonTextErr(key)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// notJSONText refuses a command or working directory that is JSON text of an array or object: a
// tool that decodes it would run, or run in, what the engine never judged (an argv list).
func notJSONText(key, s string) error {
	if _, ok := argrules.JSONText(s); ok {
		return jsonTextErr(key)
	}
	return nil
}

func jsonTextErr(key string) error {
	return bad("argument %q holds JSON text of an array or object inside a string, which a tool may decode "+
		"and read in its place; send the value itself (a path's list as an array of strings)", key)
}
