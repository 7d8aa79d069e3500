
ByJ*I\ύάbbCWnX4ήςί‚ΠkβΐβtάχαqYΧOβγ2άύ_αD`