# V6 impedance tube (ISO 10534-2) at 1 cm: a rigid sample, three broadband absorbing ones and the
# library's curtain (octave bands, fitted wall: checked against the fitted wall model's alpha, the
# deviation from the configured bands, the fit's own residual included, is printed), each within
# its threshold over the valid band 172..850 Hz (microphone spacing 0.1 m below, the force wall's
# own high-frequency loss above: see docs/theory/walls.md). Included from CMakeLists.txt.
add_test(NAME validation_v6_pulse
  COMMAND ${SPHREVERB_POST} pulse ${VOUT}/pulse_1ms.wav --width 0.001)
set_tests_properties(validation_v6_pulse PROPERTIES FIXTURES_SETUP pulse_1ms LABELS validation)

# add_v6_cases(PREFIX SCENE FMAX case ...): one ctest case per "name|key|value|expect..." item, the
# tube SCENE with the pulse, checked over 172..FMAX Hz, on 2 ranks (measured faster than two
# cases side by side on one rank each).
function(add_v6_cases prefix scene fmax)
  foreach(item IN LISTS ARGN)
    string(REPLACE "|" ";" v6 "${item}")
    list(GET v6 0 name)
    list(GET v6 1 key)
    list(GET v6 2 value)
    list(SUBLIST v6 3 -1 expect)
    add_test(NAME validation_${prefix}_${name}
      COMMAND ${RUN_CASE} $<TARGET_FILE:sphreverb> 2 ${VOUT}/${prefix}_${name}
              ${CMAKE_CURRENT_SOURCE_DIR}/${scene} --emitter.input ${VOUT}/pulse_1ms.wav
              ${key} ${value}
              -- v6 --mic1 mic1 --mic2 mic2 --x1 0.3 --spacing 0.1
                 --gate 0.0074 --fmin 172 --fmax ${fmax} ${expect}
                 --csv ${VOUT}/${prefix}_${name}/alpha.csv)
    set_tests_properties(validation_${prefix}_${name} PROPERTIES
      FIXTURES_REQUIRED pulse_1ms LABELS validation TIMEOUT 300 PROCESSORS 2)
  endforeach()
endfunction()

add_v6_cases(v6_tube tube_v6.ini 850
  "rigid|--boundary.sample.material|rigid|--rigid"
  "alpha20|--material.sample.absorption|0.2|--alpha|0.2"
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5"
  "alpha90|--material.sample.absorption|0.9|--alpha|0.9"
  "curtain|--boundary.sample.material|curtain|--bands|0.037|0.190|0.331|0.590|0.533|0.431|--model|curtain")

# V6 on the room's own faces: resistive mirror walls ([room] material_x_max; mirror_walls.hpp),
# over 172..1543 Hz (0.45 c / s: the mirror wall has no force wall's high-frequency limit); the
# library's curtain, carpet and foam as reacting mirror faces, each 1/3-octave mean within 0.05
# of the fitted wall model's alpha(f).
add_v6_cases(v6_face tube_v6_face.ini 1543
  "rigid|--room.material_x_max|rigid|--rigid"
  "alpha20|--material.sample.absorption|0.2|--alpha|0.2"
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5"
  "alpha90|--material.sample.absorption|0.9|--alpha|0.9"
  "curtain|--room.material_x_max|curtain|--bands|0.037|0.190|0.331|0.590|0.533|0.431|--model|curtain|--model-curve"
  "carpet|--room.material_x_max|carpet|--bands|0.010|0.032|0.078|0.235|0.431|0.481|--model|carpet|--model-curve"
  "foam|--room.material_x_max|foam_50mm|--bands|0.043|0.149|0.431|0.803|0.934|0.803|--model|foam_50mm|--model-curve")

# V12: the V6 tube as a room mesh (tests/validation/meshes/tube_v12.obj), walls by fixed ghost
# particles, the mesh surface `sample` the material under test, the piston on the mesh's end face
# (a velocity boundary of its ghosts); over 172..1543 Hz. On the lattice (tube_v12_0.ini) and
# rotated by the Euler angles 10 17 25, no wall parallel to a lattice plane (tube_v12.ini; the
# full case at 5 mm is tests/validation/full/V12.sh). The library's curtain and foam as reacting
# ghost walls (a face element per ghost site, ghost_walls.hpp): each 1/3-octave mean within 0.05
# of the fitted wall model's alpha(f), as the reacting mirror faces of V6 above. The alpha = 0.5
# sample also in a tube turned 45 degrees about z (tube_v12_z45.ini), where an oblique absorbing
# face without its ghosts' pressure gradient absorbed 1.16 times its admittance (alpha 0.555).
add_v6_cases(v12_mesh_tube_0 tube_v12_0.ini 1543
  "rigid|--geometry.tube.material.sample|rigid|--rigid"
  "alpha20|--material.sample.absorption|0.2|--alpha|0.2"
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5"
  "alpha90|--material.sample.absorption|0.9|--alpha|0.9"
  "curtain|--geometry.tube.material.sample|curtain|--bands|0.037|0.190|0.331|0.590|0.533|0.431|--model|curtain|--model-curve")
add_v6_cases(v12_mesh_tube_oblique tube_v12.ini 1543
  "rigid|--geometry.tube.material.sample|rigid|--rigid"
  "alpha20|--material.sample.absorption|0.2|--alpha|0.2"
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5"
  "alpha90|--material.sample.absorption|0.9|--alpha|0.9"
  "curtain|--geometry.tube.material.sample|curtain|--bands|0.037|0.190|0.331|0.590|0.533|0.431|--model|curtain|--model-curve"
  "foam|--geometry.tube.material.sample|foam_50mm|--bands|0.043|0.149|0.431|0.803|0.934|0.803|--model|foam_50mm|--model-curve")

add_v6_cases(v12_mesh_tube_z45 tube_v12_z45.ini 1543
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5")

# V12, a [room] off the lattice: V6's tube as a [room] 1.007 m long at 1 cm (tube_v6_room.ini), its
# end faces 0.85 dx from the last layer, walled by the box's ghost particles (`walls = auto`).
add_v6_cases(v12_room_tube_off_lattice tube_v6_room.ini 1543
  "rigid|--room.material_x_max|rigid|--rigid"
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5"
  "curtain|--room.material_x_max|curtain|--bands|0.037|0.190|0.331|0.590|0.533|0.431|--model|curtain|--model-curve")

# V7 coarse: the 0.75 m cube with absorption = 0.2 mirror walls at dx = 18.75 mm (64 000
# particles, no density diffusion, four receivers, 65 ms at 20 kHz): 1 and 2 kHz T30 within 10 %
# of Eyring (about 1 min on 2 idle cores). The same script at its default 12.5 mm and 30 kHz is the
# full case (scripts/validate.sh).
add_test(NAME validation_v7_room_decay
  COMMAND ${CMAKE_COMMAND} -E env SPACING=0.01875 SAMPLE_RATE=20000
          ${CMAKE_CURRENT_SOURCE_DIR}/full/V7.sh $<TARGET_FILE:sphreverb> ${VOUT}/v7)
set_tests_properties(validation_v7_room_decay PROPERTIES LABELS validation TIMEOUT 900
  PROCESSORS 2)

# V13 coarse: V7's cube with its x_max wall slanted 21.8 degrees as a room mesh, every surface an
# absorbing ghost wall (alpha_n = 0.2), at V7 coarse's dx = 18.75 mm and 20 kHz (63 680
# particles, 65 ms): 1 and 2 kHz T30 within 10 % of Kuttruff (about 1 min on 2 idle cores). The
# same script at its default 12.5 mm and 30 kHz is the full case (scripts/validate.sh).
add_test(NAME validation_v13_mesh_room_decay
  COMMAND ${CMAKE_COMMAND} -E env SPACING=0.01875 SAMPLE_RATE=20000
          ${CMAKE_CURRENT_SOURCE_DIR}/full/V13.sh $<TARGET_FILE:sphreverb> ${VOUT}/v13)
set_tests_properties(validation_v13_mesh_room_decay PROPERTIES LABELS validation TIMEOUT 900
  PROCESSORS 2)

# V12 (second half): the V6 tube with no [room], its walls six [boundary] rectangles walled by
# ghost particles (tube_v12_boundaries.ini), over 172..1543 Hz as the mirror faces above; the
# curtain as a reacting ghost-walled boundary.
add_v6_cases(v12_boundaries tube_v12_boundaries.ini 1543
  "rigid|--boundary.sample.material|rigid|--rigid"
  "alpha20|--material.sample.absorption|0.2|--alpha|0.2"
  "alpha50|--material.sample.absorption|0.5|--alpha|0.5"
  "alpha90|--material.sample.absorption|0.9|--alpha|0.9"
  "curtain|--boundary.sample.material|curtain|--bands|0.037|0.190|0.331|0.590|0.533|0.431|--model|curtain|--model-curve")

# The emitter disc on an oblique ghost face: V12's tube with an absorbing sample (alpha 0.9999,
# nothing returns), the disc filling the source end face; the plane wave at mic1 against
# rho0 c u over 100-1000 Hz and no offset behind the pulse (piston_level_check.py). Turned 45
# degrees about z within 2 % and 0.3 % (the ghosts reflected about the face at rest and without
# the disc's pressure gradient: 1.151 and -0.97 %); at the Euler angles 10 17 25 with a ten times
# weaker drive (the offset there is second order in it) within 3 % (before: 0.900).
function(add_piston_level_case name scene tol deflection)
  add_test(NAME validation_v12_piston_level_${name}_run
    COMMAND ${CMAKE_COMMAND} -E env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
            $<TARGET_FILE:sphreverb> run ${CMAKE_CURRENT_SOURCE_DIR}/${scene}
            --out ${VOUT}/v12_piston_${name} --emitter.input ${VOUT}/pulse_1ms.wav
            --material.sample.absorption 0.9999 --time.duration 0.0076
            --emitter.deflection ${deflection} --output.checkpoint_every 0)
  set_tests_properties(validation_v12_piston_level_${name}_run PROPERTIES
    FIXTURES_REQUIRED pulse_1ms FIXTURES_SETUP v12_piston_${name} LABELS validation TIMEOUT 300)
  add_test(NAME validation_v12_piston_level_${name}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/piston_level_check.py
            ${VOUT}/v12_piston_${name} ${VOUT}/pulse_1ms.wav --deflection ${deflection}
            --tol ${tol})
  set_tests_properties(validation_v12_piston_level_${name} PROPERTIES
    FIXTURES_REQUIRED v12_piston_${name} LABELS validation TIMEOUT 60)
endfunction()
add_piston_level_case(z45 tube_v12_z45.ini 0.02 1e-6)
add_piston_level_case(euler tube_v12.ini 0.03 1e-7)
