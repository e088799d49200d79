# animcAssets.cmake - animc_add_assets(), part of animc's CMake package.
#
#   animc_add_assets(<name> OUTPUT_DIR <dir> SOURCES <files or folders>...
#                    [OPTIONS <animc build options>...])
#
# Makes the target <name> (built by default) that compiles the sources into
# OUTPUT_DIR (relative to the current binary folder) at build time:
#  - each source file is one build rule, `animc build` on that file alone;
#    a folder's files land at their path under it, as `animc build FOLDER`
#    puts them (a linked folder's files under the link's name, one leading
#    inside the folder once); the files it leaves out (a glTF's buffer, a
#    sidecar its source uses, a README) get no rule;
#  - the outputs are known at configure time from `animc outputs`; a source
#    whose outputs are named by its clips (glTF, FBX, ...) re-runs the
#    configure step when it changes, so a clip added or renamed is an output
#    (as does a file animc reads that holds no clip yet, a glTF model);
#    so do its STEM_Anims.xml sidecar (one copied in later too), a --clips
#    document in OPTIONS, and files added to or removed from a folder;
#  - what else a source's outputs depend on (a --skeleton model, a sidecar,
#    a glTF's .bin) comes from `animc build --depfile`, which Ninja and the
#    Makefile generators read (CMake 3.20 or later);
#  - every rule depends on animc, and on a stamp of its --version (another
#    animc runs every rule once, even one installed with old mtimes: the
#    build marker `make install` puts beside this file configures again);
#  - each rule's animc build runs with --prune: the outputs its source no
#    longer writes (an OPTIONS change, a --split added; a clip renamed) go
#    when it runs, and would otherwise stay in OUTPUT_DIR, where a package
#    installing the folder ships them (a deleted source's go with the next
#    rule that runs; a failed source keeps its last good outputs);
#  - an OUTPUT_DIR whose path a rule cannot carry ('=', '&', ...; the
#    build folder's path, as a rule) fails the configure step, naming it;
#  - one file given two rules into one OUTPUT_DIR (a folder and a file of
#    it, two folders one inside the other, in one call or two) fails the
#    configure step: each rule would remove the other's output;
#  - a source animc cannot compile at configure time (a file named in
#    SOURCES, one the folder build fails, or the folder when its build fails
#    as a whole: an unreadable --skeleton model, a misspelt option) gets a
#    rule that runs `animc build` on it, so that the build fails with
#    animc's message until it is fixed (once that rule succeeds, the next
#    build configures again, whether the source or what it reads, a glTF's
#    .bin, the model, was fixed).
# OPTIONS are passed to both `animc outputs` (which ignores build's options
# that change no output's name) and `animc build`, both run in the current
# source folder: relative paths in them (--skeleton art/hero.gltf) are
# relative to it, as SOURCES are.

# This file's folder (PREFIX/lib/cmake/animc), where `make install` puts a
# build marker named after the animc it installs (animc-VERSION-BUILD.build).
set(_animc_assets_dir "${CMAKE_CURRENT_LIST_DIR}")

# The stamp `stamp` every rule depends on: the --version of `animc`, written
# only when it changed.  An install that keeps a package's old mtimes (a
# package manager unpacks them) leaves animc no newer than the outputs, and
# the rules, which depend on it, ran nothing: the marker it installs has
# another name, so the glob of markers makes the build configure again, and
# the stamp is then newer than every output.
function(_animc_tool_stamp animc stamp)
  file(GLOB marks CONFIGURE_DEPENDS "${_animc_assets_dir}/*.build")
  execute_process(COMMAND "${animc}" --version OUTPUT_VARIABLE tool ERROR_QUIET)
  set(was "")
  if(EXISTS "${stamp}")
    file(READ "${stamp}" was)
  endif()
  if(NOT was STREQUAL tool)
    file(WRITE "${stamp}" "${tool}")
  endif()
endfunction()

# Whether the messages `said` of `animc outputs` on a folder (after a line
# break) hold an error of `file`: the folder build fails it.  Files it
# leaves out (a glTF's buffer, a sidecar its source uses, a README) have
# none; a warning (a link to nothing) fails nothing.  (`file` ending in
# '/', a folder: an error of any file under it.)
function(_animc_fails_in_folder result file said)
  set(fails FALSE)
  set(name "^")
  if(file MATCHES "/$")
    set(name "^[^\n:]+")
  endif()
  string(LENGTH "${file}" length)
  string(FIND "${said}" "\n${file}" at)
  while(NOT at EQUAL -1)
    math(EXPR at "${at} + 1 + ${length}")
    string(SUBSTRING "${said}" ${at} -1 said)
    if(said MATCHES "${name}(:[0-9]+)*: error: ")
      set(fails TRUE)
      break()
    endif()
    string(FIND "${said}" "\n${file}" at)
  endwhile()
  set(${result} ${fails} PARENT_SCOPE)
endfunction()

# The files `through` (of the folder `source`, reached through links to
# folders) in the order animc's walk meets them: it takes the links of the
# real tree first, in its order, then the links met in those, and so on; a
# folder it has walked already is not walked again.  So a file behind fewer
# links comes first (sub/extlink/x before again/extlink/x, `again` being a
# link to `sub`), and among as many, by path.
function(_animc_by_links result source through)
  set(most 0)
  foreach(file IN LISTS through)
    file(RELATIVE_PATH rel "${source}" "${file}")
    get_filename_component(rel "${rel}" DIRECTORY)
    string(REPLACE "/" ";" parts "${rel}")
    set(at "${source}")
    set(links 0)
    foreach(part IN LISTS parts)
      set(at "${at}/${part}")
      if(IS_SYMLINK "${at}")
        math(EXPR links "${links} + 1")
      endif()
    endforeach()
    list(APPEND "behind ${links}" "${file}")
    if(links GREATER most)
      set(most ${links})
    endif()
  endforeach()
  set(ordered "")
  foreach(links RANGE ${most})
    set(behind "behind ${links}")
    list(APPEND ordered ${${behind}})
  endforeach()
  set(${result} "${ordered}" PARENT_SCOPE)
endfunction()

# Whether an importer reads `file` (when `animc outputs` lists nothing for
# it): named alone, animc refuses a file no importer recognises, and says
# what else is wrong with one it reads.
function(_animc_imported result animc file options)
  execute_process(
    COMMAND "${animc}" outputs -q ${options} -o "${CMAKE_CURRENT_BINARY_DIR}" "${file}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    OUTPUT_QUIET ERROR_VARIABLE said RESULT_VARIABLE status)
  string(FIND "${said}" ": error: no importer recognises this file" unknown)
  if(status EQUAL 0 OR unknown EQUAL -1)
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()

# The rule of a source that animc cannot compile at configure time: it
# runs `command` (animc build) until that succeeds, writing `stamp`.failed.
# What fixed it may be another file (a glTF's buffer, a --clips document,
# the --skeleton model), which is no dependency of the rule: so its success
# touches `stamp`.fixed, a configure dependency, and the next build
# configures again, giving the source its outputs and depfile.
function(_animc_failed_rule stamp file)
  file(TOUCH "${stamp}.fixed")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${stamp}.fixed")
  file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${file}")
  add_custom_command(
    OUTPUT "${stamp}.failed"
    COMMAND ${ARGN}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}.failed" "${stamp}.fixed"
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    DEPENDS "${file}" "${ARGV2}"
    COMMENT "animc ${shown}"
    VERBATIM)
endfunction()

# Why a rule cannot carry `text` (a source's name, or its folders' path)
# in `result`, empty when it can.  CMake refuses '#' in an output; '%', a
# pattern to make, is escaped in the depfile, which CMake reads back as
# another path, and so is ':' (a target pattern to make); CMake writes '$'
# into the depfile it hands Ninja as it is, where Ninja's reader stops at
# it; the characters animc --depfile refuses (make and Ninja do not both
# read them: docs/build.md); make reads NAME(MEMBER) as an archive member.
# Such a rule would fail or never settle.
function(_animc_bad_name result text control)
  set(bad "")
  if(text MATCHES "#")
    set(bad "'#', which CMake does not allow in a rule's output")
  elseif(text MATCHES "%")
    set(bad "'%', which depfiles escape and CMake misreads")
  elseif(text MATCHES ":")
    set(bad "':', which depfiles escape and CMake misreads")
  elseif(CMAKE_GENERATOR MATCHES "Ninja" AND text MATCHES "[$]")
    set(bad "'$', which Ninja misreads in a depfile")
  elseif(text MATCHES "[\"&'*;<>?^`|=[]")
    string(CONCAT bad "one of \" & ' * ; < > ? ^ ` | = [, which make and Ninja do not both read in a depfile "
           "(animc --depfile refuses it)")
  elseif(CMAKE_GENERATOR MATCHES "Makefiles" AND text MATCHES "[^ /]\\([^/]*\\)$")
    set(bad "NAME(...), which make reads as an archive member")
  elseif(text MATCHES "${control}")
    string(CONCAT bad "a control character (a tab, a line break), which animc --depfile refuses and make "
           "splits at")
  endif()
  set(${result} "${bad}" PARENT_SCOPE)
endfunction()

function(animc_add_assets name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIR" "SOURCES;OPTIONS")
  if(NOT ARG_OUTPUT_DIR OR NOT ARG_SOURCES)
    message(FATAL_ERROR "animc_add_assets(${name}): give OUTPUT_DIR and SOURCES")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "animc_add_assets(${name}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_target_property(animc animc::cli IMPORTED_LOCATION)
  get_filename_component(out "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(depdir "${CMAKE_CURRENT_BINARY_DIR}/animc-${name}")
  set(all_outputs "")
  # Control characters, for names (and, but for the line break that
  # separates them, for the outputs listed one a line).
  string(ASCII 1 first)
  string(ASCII 9 tab)
  string(ASCII 11 after_break)
  string(ASCII 31 last)
  string(ASCII 127 del)
  set(control "[${first}-${last}${del}]")
  set(control_in_line "[${first}-${tab}${after_break}-${last}${del}]")
  # The depfile names every output by OUTPUT_DIR's path, which holds the
  # build folder's: held to the names a rule can carry, or every rule
  # would fail at build time asking to rename an output.
  _animc_bad_name(bad "${out}/" "${control}")
  if(bad)
    message(FATAL_ERROR "animc_add_assets(${name}): OUTPUT_DIR ${out} holds ${bad}, and every output's path "
                        "holds it; choose a build folder (and OUTPUT_DIR) whose path does not")
  endif()
  file(MAKE_DIRECTORY "${depdir}")
  set(tool_stamp "${depdir}/animc.version")
  _animc_tool_stamp("${animc}" "${tool_stamp}")
  # A --clips document names the clips of every source it splits: a part
  # added or renamed there is an output too, found by configuring again.
  set(clips_next FALSE)
  set(cuts "")
  foreach(option IN LISTS ARG_OPTIONS)
    if(option MATCHES "^--(split|clips)(=|$)")
      set(cuts "--${CMAKE_MATCH_1}")
    endif()
    set(clips "")
    if(clips_next)
      set(clips "${option}")
    elseif(option MATCHES "^--clips=(.+)")
      set(clips "${CMAKE_MATCH_1}")
    endif()
    set(clips_next FALSE)
    if(option STREQUAL "--clips")
      set(clips_next TRUE)
    endif()
    if(clips)
      get_filename_component(clips "${clips}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      if(EXISTS "${clips}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${clips}")
      endif()
    endif()
  endforeach()

  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(IS_DIRECTORY "${source}" AND cuts)
      # `animc build FOLDER` does not cut a folder's files (a usage
      # error); here each file would be named alone and cut.
      message(FATAL_ERROR "animc_add_assets(${name}): ${cuts} cuts the sources named in SOURCES, and "
                          "${source} is a folder, whose files animc does not cut: name the source to cut, "
                          "or give its cuts in a STEM_Anims.xml sidecar beside it")
    elseif(IS_DIRECTORY "${source}")
      # Through links to folders, as `animc build FOLDER` walks them.
      file(GLOB_RECURSE files LIST_DIRECTORIES false FOLLOW_SYMLINKS CONFIGURE_DEPENDS "${source}/*")
      # CMake's lists do not split at a ';' inside square brackets: one
      # name holding '[' or ']' would make the folder one path that is not
      # there, and every rule of it would go, silently.  Named; the
      # configure step fails.
      if(files MATCHES "[][]")
        string(REGEX MATCHALL "[^;]*[][][^;]*" bracketed "${files}")
        string(REPLACE ";" "\n  " bracketed "${bracketed}")
        message(SEND_ERROR "animc_add_assets(${name}): under ${source}, names holding '[' or ']', which "
                           "CMake lists cannot hold (nor make read in a depfile); rename them:\n  ${bracketed}")
        continue()
      endif()
      list(SORT files)
      # The walk takes a folder reached twice once, by its real path
      # before any link to it: files reached through a link come last.
      get_filename_component(source_real "${source}" REALPATH)
      set(direct "")
      set(through "")
      foreach(file IN LISTS files)
        get_filename_component(folder "${file}" DIRECTORY)
        get_filename_component(folder_real "${folder}" REALPATH)
        file(RELATIVE_PATH rel "${source}" "${folder}")
        if(folder_real STREQUAL "${source_real}/${rel}" OR (rel STREQUAL "" AND folder_real STREQUAL source_real))
          list(APPEND direct "${file}")
        else()
          list(APPEND through "${file}")
        endif()
      endforeach()
      _animc_by_links(through "${source}" "${through}")
      set(files ${direct} ${through})
      set(base --base "${source}")
    elseif(EXISTS "${source}")
      set(files "${source}")
      set(base "")
    else()
      message(FATAL_ERROR "animc_add_assets(${name}): no such source: ${source}")
    endif()

    set(split_names FALSE)
    unset(folder_said)
    set(run_failed FALSE)
    foreach(file IN LISTS files)
      # A name holding ';' is split by CMake's lists into a path that is
      # not there and a piece that is no path: said once per folder.
      if(NOT IS_ABSOLUTE "${file}")
        if(NOT split_names)
          message(SEND_ERROR "animc_add_assets(${name}): a file name under ${source} holds ';', which "
                             "CMake lists cannot hold; rename it")
          set(split_names TRUE)
        endif()
        continue()
      elseif(NOT EXISTS "${file}" AND NOT IS_SYMLINK "${file}")
        continue()
      endif()
      # A folder reached twice (a link to a folder the walk takes anyway)
      # is taken once, as the walk does: by its real path, where animc
      # build --base lands its files from either path.
      get_filename_component(folder "${file}" DIRECTORY)
      get_filename_component(folder "${folder}" REALPATH)
      get_filename_component(leaf "${file}" NAME)
      if(DEFINED "animc_walked ${source} ${folder}/${leaf}")
        continue()
      endif()
      set("animc_walked ${source} ${folder}/${leaf}" TRUE)
      # Names animc build leaves out of a folder walk: starting with '.',
      # editors' backups and auto-saves (name~, #name#), name.tmp.
      file(RELATIVE_PATH rel "${source}" "${file}")
      if(rel MATCHES "(^|/)\\." OR rel MATCHES "~$" OR rel MATCHES "(^|/)#[^/]*#$" OR
         rel MATCHES "\\.(swp|tmp)$")
        continue()
      endif()
      # Names a rule cannot carry (_animc_bad_name): the name below the
      # SOURCES folder (a file named alone there: its own name), then the
      # folders above it, which the depfile names as well.
      set(checked "${rel}")
      if(NOT base)
        get_filename_component(checked "${file}" NAME)
      endif()
      get_filename_component(above "${file}" DIRECTORY)
      _animc_bad_name(bad "${checked}" "${control}")
      set(where "name")
      if(NOT bad)
        _animc_bad_name(bad "${above}/" "${control}")
        set(where "folder")
      endif()
      if(bad)
        message(SEND_ERROR "animc_add_assets(${name}): ${file}: its ${where} holds ${bad}; rename it")
        continue()
      endif()
      execute_process(
        COMMAND "${animc}" outputs -q ${ARG_OPTIONS} ${base} -o "${out}" "${file}"
        WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
        OUTPUT_VARIABLE listed ERROR_VARIABLE errors RESULT_VARIABLE status)
      if(NOT status EQUAL 0 AND base)
        # A file of a folder that fails alone: a source the folder build
        # fails, or a file it leaves out, which gets no rule.  Only the
        # folder build can tell, once asked.
        if(NOT DEFINED folder_said)
          execute_process(
            COMMAND "${animc}" outputs -q ${ARG_OPTIONS} -o "${out}" "${source}"
            WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
            OUTPUT_QUIET ERROR_VARIABLE folder_said RESULT_VARIABLE folder_status)
          set(folder_said "\n${folder_said}")
          # The folder build failing with no error of a file of it fails
          # as a run (an unreadable --skeleton model, a misspelt option):
          # it tells nothing of the files, which all fail alone too.
          if(NOT folder_status EQUAL 0)
            _animc_fails_in_folder(folder_failed "${source}/" "${folder_said}")
            if(NOT folder_failed)
              set(run_failed TRUE)
            endif()
          endif()
        endif()
        if(run_failed)
          continue()
        endif()
        _animc_fails_in_folder(fails "${file}" "${folder_said}")
        if(NOT fails)
          continue()
        endif()
      endif()
      # Its STEM_Anims.xml sidecar names its clips as much as it does: a
      # part added or renamed there is an output too.
      get_filename_component(folder "${file}" DIRECTORY)
      get_filename_component(stem "${file}" NAME_WLE)
      if(EXISTS "${folder}/${stem}_Anims.xml" AND NOT IS_DIRECTORY "${folder}/${stem}_Anims.xml")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${folder}/${stem}_Anims.xml")
      elseif(NOT base)
        # One copied in later splits it (as animc build FILE and watch
        # see it): a glob that matches nothing yet, checked on every build
        # as a folder's is.
        file(GLOB sidecar CONFIGURE_DEPENDS "${folder}/${stem}_Anims.xml")
      endif()
      if(NOT status EQUAL 0)
        # The build fails on it, with animc's message, until it is fixed;
        # a change to it configures again.
        message(WARNING "animc_add_assets(${name}): ${file} cannot be compiled:\n${errors}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
        # Named by the source, so that a file added or removed elsewhere
        # renames no other rule's files.
        string(MD5 rule "${file}")
        _animc_failed_rule("${depdir}/${rule}" "${file}"
                           "${animc}" build -q --progress never --prune ${ARG_OPTIONS} ${base} -o "${out}" "${file}")
        list(APPEND all_outputs "${depdir}/${rule}.failed")
        continue()
      endif()
      string(STRIP "${listed}" listed)
      if(listed STREQUAL "")
        # No output now (a glTF model, a file before its first animation,
        # no clip that --clip names yet): one the folder build leaves out
        # (a glTF's buffer, a README) is nothing, but a file an importer
        # reads gets its clips' outputs once they are added to it.
        _animc_imported(imported "${animc}" "${file}" "${ARG_OPTIONS}")
        if(imported)
          set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
        endif()
        continue()
      endif()
      # A clip-split sidecar or a glTF's buffer names its source's outputs
      # (under --base animc takes it for its source): the source's rule,
      # made first (its name sorts before STEM_Anims.xml), writes them and
      # its depfile names the file.  It lies in the source's folder; so
      # does a file named twice in SOURCES.
      string(REGEX REPLACE "\n.*" "" first_output "${listed}")
      set(made "animc made ${first_output}")
      set(from "animc from ${first_output}")
      if(DEFINED "${made}" AND ("${${made}}" STREQUAL file OR "${${from}}" STREQUAL source))
        continue()
      endif()
      # The outputs' names come from its clips' names: the same limits,
      # on what lies under OUTPUT_DIR.
      string(REPLACE "${out}/" "" named "${listed}")
      # (An output ends in .xnb: never NAME(MEMBER) to make.)
      if(named MATCHES "[][#%;:\"&'*<>?^`|=]" OR (CMAKE_GENERATOR MATCHES "Ninja" AND named MATCHES "[$]") OR
         named MATCHES "${control_in_line}")
        message(SEND_ERROR "animc_add_assets(${name}): ${file}: the name of an output (a clip's) holds "
                           "one of # % ; : \" & ' * < > ? ^ ` | = [ ] (or, with Ninja, $) or a control "
                           "character, which a rule cannot carry; rename the clip:\n${listed}")
        continue()
      endif()
      string(REPLACE "\n" ";" outputs "${listed}")
      # One file given two rules into one OUTPUT_DIR (a folder and a file
      # of it, two folders one inside the other; in one call or two): each
      # rule's animc build --prune would take the source's record for its
      # own output and remove the other's, and the build would never
      # settle.  Refused, naming both.
      get_filename_component(file_real "${file}" REALPATH)
      get_property(twice GLOBAL PROPERTY "animc rule ${out} ${file_real}")
      if(twice)
        message(SEND_ERROR "animc_add_assets(${name}): ${file} is given a rule into ${out} twice: by "
                           "${source}, and by ${twice}; each rule would remove the other's output. "
                           "Name it once, or give the two to other OUTPUT_DIRs")
        continue()
      endif()
      set_property(GLOBAL PROPERTY "animc rule ${out} ${file_real}" "${source} (animc_add_assets(${name}))")
      # Two sources of one output from two SOURCES (two folders holding
      # one name): one was dropped, silently.  Refused, as animc build
      # refuses it.
      set(clash "")
      foreach(output IN LISTS outputs)
        if(DEFINED "animc made ${output}")
          set(clash "${output}")
          break()
        endif()
        set("animc made ${output}" "${file}")
        set("animc from ${output}" "${source}")
      endforeach()
      if(clash)
        set(made "animc made ${clash}")
        message(SEND_ERROR "animc_add_assets(${name}): ${file}: its output ${clash} is the output of "
                           "${${made}} too; rename one, or give them to two animc_add_assets() "
                           "with other OUTPUT_DIRs")
        continue()
      endif()

      # A source of named clips: its clip list may change with it.  (Its
      # name compared as a string: as a pattern, C++ or Walk(1) was no
      # pattern or another one.)
      # The whole path: a clip named like its file lands in a folder of
      # that name (kick/kick.xnb), and another clip may join it.
      get_filename_component(single "${out}/${rel}" DIRECTORY)
      if(NOT base)
        set(single "${out}")
      endif()
      set(single "${single}/${stem}.xnb")
      if(NOT (outputs STREQUAL single OR outputs STREQUAL "${single}.zst"))
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
      endif()

      # Named by the source and its outputs: a file added or removed
      # elsewhere in a folder changes no other rule's command, which would
      # run it again; a clip renamed gives its rule a new depfile (Ninja
      # refuses one naming an output the rule no longer declares).
      string(MD5 rule "${file};${outputs}")
      set(depfile "${depdir}/${rule}.d")
      file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${file}")
      # The outputs it keeps as they were (the same bytes) are touched:
      # newer than the stamp, which is no file animc knows.
      add_custom_command(
        OUTPUT ${outputs}
        COMMAND "${animc}" build -q --progress never --prune ${ARG_OPTIONS} ${base} --depfile "${depfile}"
                -o "${out}" "${file}"
        COMMAND "${CMAKE_COMMAND}" -E touch_nocreate ${outputs}
        WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
        DEPENDS "${file}" "${animc}" "${tool_stamp}"
        DEPFILE "${depfile}"
        COMMENT "animc ${shown}"
        VERBATIM)
      list(APPEND all_outputs ${outputs})
    endforeach()
    if(run_failed)
      # One rule for the folder, which fails the build with animc's
      # message until it succeeds; then the next build configures again.
      message(WARNING "animc_add_assets(${name}): ${source} cannot be compiled:${folder_said}")
      string(MD5 rule "${source}")
      _animc_failed_rule("${depdir}/${rule}" "${source}"
                         "${animc}" build -q --progress never --prune ${ARG_OPTIONS} -o "${out}" "${source}")
      list(APPEND all_outputs "${depdir}/${rule}.failed")
    endif()
  endforeach()

  add_custom_target(${name} ALL DEPENDS ${all_outputs})
endfunction()
